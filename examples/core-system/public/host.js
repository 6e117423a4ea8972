/**
 * The host page of the demo core system: opens a Lotline page in an iframe with a fresh token, logs the
 * page's window messages, shows the session's time left and hands the page a new token two minutes before the
 * old one expires, so the user keeps what they entered.
 */
import { loadConfig, requestToken } from "./core-api.js";
import { missingInput, PAGES, pageUrl } from "./lotline-pages.js";
import { MessageLog } from "./message-log.js";
import { formatSeconds, SessionClock } from "./session-clock.js";
import { showReceivedWebhooks } from "./webhook-list.js";

const form = /** @type {HTMLFormElement} */ (document.getElementById("open-form"));
const pageSelect = /** @type {HTMLSelectElement} */ (document.getElementById("page-select"));
const openButton = /** @type {HTMLButtonElement} */ (document.getElementById("open-button"));
const formError = /** @type {HTMLElement} */ (document.getElementById("form-error"));
const frameArea = /** @type {HTMLElement} */ (document.getElementById("frame-area"));
const countdown = /** @type {HTMLElement} */ (document.getElementById("session-countdown"));
const sessionNote = /** @type {HTMLElement} */ (document.getElementById("session-note"));
const refreshButton = /** @type {HTMLButtonElement} */ (document.getElementById("refresh-session"));

/** @type {HTMLIFrameElement | undefined} */
let frame;
let lotlineOrigin = "";

const messageLog = new MessageLog(/** @type {HTMLOListElement} */ (document.getElementById("message-log")));
const clock = new SessionClock({ onTick: showTimeLeft, onRefreshDue: () => refreshSession() });

/**
 * What automated checks of the demo read: the accepted messages and when the last frame was created (epoch ms,
 * so it compares with the frame's `performance.timeOrigin`-based marks).
 */
window.coreSystem = { messages: messageLog.messages, frameCreatedAt: undefined };

showFieldsOf(pageSelect.value);
pageSelect.addEventListener("change", () => showFieldsOf(pageSelect.value));
form.callback_url.value = `${location.origin}/webhooks`;
form.addEventListener("submit", (event) => {
  event.preventDefault();
  openPage();
});
refreshButton.addEventListener("click", () => refreshSession());
showReceivedWebhooks(/** @type {HTMLOListElement} */ (document.getElementById("webhook-list")));

const config = await loadConfig();
lotlineOrigin = config.lotline_origin;
messageLog.listen(lotlineOrigin, () => frame?.contentWindow);
openButton.disabled = false;

function showFieldsOf(page) {
  for (const label of form.querySelectorAll("[data-pages]")) {
    label.hidden = !label.dataset.pages.split(" ").includes(page);
  }
}

async function openPage() {
  const page = pageSelect.value;
  const values = Object.fromEntries(new FormData(form));
  const missing = missingInput(page, values);
  showFormError(missing);
  if (missing) return;
  openButton.disabled = true;
  try {
    const { token, expires_in } = await requestToken();
    const next = document.createElement("iframe");
    next.id = "lotline-frame";
    next.title = `Lotline: ${PAGES[page].label}`;
    // The page learns which host framed it; the path and query of the host page stay private.
    next.referrerPolicy = "origin";
    next.src = pageUrl(config.lotline_url, page, values, token);
    window.coreSystem.frameCreatedAt = performance.timeOrigin + performance.now();
    frame = next;
    frameArea.replaceChildren(next);
    clock.start(expires_in);
    sessionNote.textContent = `Token issued for ${formatSeconds(expires_in)}; it is refreshed automatically.`;
    refreshButton.disabled = false;
  } catch (error) {
    showFormError(`Could not open the page: ${error.message}`);
  } finally {
    openButton.disabled = false;
  }
}

/** Fetches a new token and hands it to the open page, which swaps it in without reloading. */
async function refreshSession() {
  if (!frame?.contentWindow) return;
  const target = frame;
  refreshButton.disabled = true;
  try {
    const { token, expires_in } = await requestToken();
    if (target !== frame) return; // Another page was opened meanwhile; it has its own token.
    target.contentWindow?.postMessage({ type: "host-session-token", token }, lotlineOrigin);
    clock.start(expires_in);
    sessionNote.textContent = `Session refreshed at ${new Date().toLocaleTimeString()}.`;
  } catch (error) {
    sessionNote.textContent = `The refresh failed (${error.message}); trying again in 30 seconds.`;
    setTimeout(() => refreshSession(), 30_000);
  } finally {
    refreshButton.disabled = false;
  }
}

function showTimeLeft(secondsLeft) {
  countdown.textContent =
    secondsLeft > 0 ? `Session ends in ${formatSeconds(secondsLeft)}` : "Session ended: open the page again.";
  countdown.classList.toggle("warning", secondsLeft < 300);
}

function showFormError(message) {
  formError.hidden = !message;
  formError.textContent = message ?? "";
}
