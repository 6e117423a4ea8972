/**
 * The host page of the demo core system, built on `@lotline/host-sdk`'s browser bundle (served by this core
 * system from its own origin). `mount` frames the chosen Lotline page with a token from this core system's server,
 * refreshes the token before it expires (handing it to the open page, which keeps everything the user entered),
 * warns before the session ends (its ready-made notice above the frame, and the `session-expiring` events), and
 * delivers the page's window messages typed, only from that frame and from Lotline's origin.
 */
import { mount } from "/sdk/lotline-host-sdk.js";
import { fetchToken, loadConfig } from "./core-api.js";
import { MessageLog } from "./message-log.js";
import { showReceivedWebhooks } from "./webhook-list.js";

/** The page's window messages, each delivered to the log through the handle's typed `on(type, listener)`. */
const MESSAGE_TYPES = [
  "service-order-processing",
  "service-order-complete",
  "service-error",
  "service-footprint-submitted",
  "service-footprint-callback-completed",
  "service-session-ended",
];
const SESSION_EVENT_TYPES = ["session-refreshed", "session-expiring", "session-expired", "refresh-failed"];

const form = /** @type {HTMLFormElement} */ (document.getElementById("open-form"));
const pageSelect = /** @type {HTMLSelectElement} */ (document.getElementById("page-select"));
const openButton = /** @type {HTMLButtonElement} */ (document.getElementById("open-button"));
const formError = /** @type {HTMLElement} */ (document.getElementById("form-error"));
const frameArea = /** @type {HTMLElement} */ (document.getElementById("frame-area"));
const countdown = /** @type {HTMLElement} */ (document.getElementById("session-countdown"));
const sessionNote = /** @type {HTMLElement} */ (document.getElementById("session-note"));
const refreshButton = /** @type {HTMLButtonElement} */ (document.getElementById("refresh-session"));

const messageLog = new MessageLog(/** @type {HTMLOListElement} */ (document.getElementById("message-log")));

/**
 * What automated checks of the demo read: the window messages and session events the host received, the mounted
 * page's handle, and when its page was first loaded (epoch ms, so it compares with the frame's
 * `performance.timeOrigin`-based marks).
 */
window.coreSystem = {
  messages: messageLog.messages,
  sessionEvents: messageLog.sessionEvents,
  lotline: undefined,
  frameCreatedAt: undefined,
};

showFieldsOf(pageSelect.value);
pageSelect.addEventListener("change", () => showFieldsOf(pageSelect.value));
form.callback_url.value = `${location.origin}/webhooks`;
form.addEventListener("submit", (event) => {
  event.preventDefault();
  openPage();
});
refreshButton.addEventListener("click", () => {
  // The SDK's retries go on whether or not this one works.
  window.coreSystem.lotline?.refresh().catch((error) => {
    sessionNote.textContent = `Refreshing now failed (${error.message}); the SDK keeps trying.`;
  });
});
showReceivedWebhooks(/** @type {HTMLOListElement} */ (document.getElementById("webhook-list")));

const config = await loadConfig();
// The time left, read from the SDK once a second for the countdown line (the SDK counts it from the lifetime the
// server gave, on the monotonic clock).
setInterval(showTimeLeft, 1000);
openButton.disabled = false;

function showFieldsOf(page) {
  for (const label of form.querySelectorAll("[data-pages]")) {
    label.hidden = !label.dataset.pages.split(" ").includes(page);
  }
}

function openPage() {
  const page = pageSelect.value;
  // Every field may go in: the SDK takes the parameters its page accepts and leaves out empty ones.
  const params = Object.fromEntries(new FormData(form));
  showFormError(undefined);
  // One page at a time: the old one's frame, listeners and timers go with it.
  window.coreSystem.lotline?.destroy();
  window.coreSystem.lotline = undefined;
  frameArea.replaceChildren();
  let lotline;
  try {
    lotline = mount({
      container: frameArea,
      page,
      params,
      lotlineUrl: config.lotline_url,
      fetchToken,
      notice: true,
      height: "max(40rem, calc(100vh - 8rem))",
    });
  } catch (error) {
    // A property id that is not a positive whole number is refused here, before any token is fetched.
    showFormError(`Could not open the page: ${error.message}`);
    return;
  }
  lotline.iframe.id = "lotline-frame";
  window.coreSystem.lotline = lotline;
  for (const type of MESSAGE_TYPES) lotline.on(type, (message) => messageLog.addMessage(message));
  for (const type of SESSION_EVENT_TYPES) lotline.on(type, (event) => messageLog.addSessionEvent(event));

  let loaded = false;
  lotline.on("session-refreshed", ({ expiresIn }) => {
    if (!loaded) window.coreSystem.frameCreatedAt = performance.timeOrigin + performance.now();
    loaded = true;
    countdown.classList.remove("warning");
    sessionNote.textContent = `Token for ${formatTime(expiresIn * 1000)} received at ${new Date().toLocaleTimeString()}; the SDK refreshes it before it expires.`;
    refreshButton.disabled = false;
    showTimeLeft();
  });
  lotline.on("session-expiring", () => countdown.classList.add("warning"));
  lotline.on("session-expired", () => {
    sessionNote.textContent = "The session ended before a new token arrived; the page reloads when one does.";
  });
  lotline.on("refresh-failed", ({ error, attempt }) => {
    if (!loaded) showFormError(`Could not open the page: ${error.message}`);
    sessionNote.textContent = `Getting a token failed (${error.message}, attempt ${attempt}); the SDK tries again.`;
  });
  lotline.on("service-session-ended", ({ reason }) => {
    sessionNote.textContent = `The page reported its session ended (${reason}); the SDK reloads it with a fresh token.`;
  });
  showTimeLeft();
}

function showTimeLeft() {
  const left = window.coreSystem.lotline?.timeLeft();
  if (left === undefined) countdown.textContent = "No page open.";
  else if (left === null) countdown.textContent = "Getting a token…";
  else if (left > 0) countdown.textContent = `Session ends in ${formatTime(left)}`;
  else countdown.textContent = "Session ended: waiting for a new token.";
}

/** `3_599_000` → `59:59`, rounded up so that `0:00` means ended. */
function formatTime(milliseconds) {
  const seconds = Math.max(0, Math.ceil(milliseconds / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

function showFormError(message) {
  formError.hidden = !message;
  formError.textContent = message ?? "";
}
