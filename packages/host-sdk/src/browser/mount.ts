import { browserClock, type Clock, type TimerHandle } from "./clock.js";
import { createCountdown, DEFAULT_THRESHOLDS_MS } from "./countdown.js";
import { createEmitter } from "./emitter.js";
import type { MountEvent, MountEvents } from "./events.js";
import type { FetchToken } from "./fetch-token.js";
import type { HostSessionTokenMessage } from "./generated/messages.js";
import { listenForServiceMessages } from "./listen-for-service-messages.js";
import { listenForWake } from "./listen-for-wake.js";
import { createNotice, type Notice } from "./notice.js";
import { pageUrl } from "./page-url.js";
import type { PageName, PageSelection } from "./pages.js";
import { defaultRefreshMargin } from "./refresh-delay.js";
import { retryDelay } from "./retry-delay.js";
import { acquireSession } from "./shared-session.js";
import { createTokenSession } from "./token-session.js";

/** What {@link mount} needs: a page with its parameters, where to put it, and how to get tokens. */
export type MountOptions = PageSelection & {
  /** The element the frame (and the notice, if any) is appended to. */
  container: HTMLElement;
  /** Gets an iframe JWT from the host's own backend. Frames mounted with the same function share one session. */
  fetchToken: FetchToken;
  /** Where Lotline serves its pages, e.g. `https://lotline.example`. Its origin is the only one trusted. */
  lotlineUrl: string;
  /** Milliseconds of time left at which `session-expiring` fires; default 5 minutes and 1 minute. */
  thresholds?: readonly number[];
  /** Refresh this many milliseconds before expiry; default a minute before the largest threshold (≥ 2 minutes). */
  refreshMargin?: number;
  /** Show a ready-made time-left notice (`role="status"`) above the frame; optionally with your own wording. */
  notice?: boolean | { text?: (msLeft: number) => string };
  /** Called with every event, as an alternative to `on()`. */
  onEvent?: (event: MountEvent) => void;
  /** CSS height of the frame; default `720px`. Its width is always 100% of the container. */
  height?: string;
  /** Accessible name of the frame; default names the page, e.g. "Lotline: new order". */
  title?: string;
  /** Time source; tests pass a fake one. */
  clock?: Clock;
};

/** A mounted page. */
export interface MountHandle {
  iframe: HTMLIFrameElement;
  /** Adds a listener for one event type; returns the function that removes it. */
  on<T extends keyof MountEvents>(type: T, listener: (event: MountEvents[T]) => void): () => void;
  /** Milliseconds the session has left (0 once expired), or null before the first token. */
  timeLeft(): number | null;
  /** Fetches and hands over a new token now (shared with the other frames). Rejects if that fetch fails. */
  refresh(): Promise<void>;
  /** Removes the frame and notice and stops listening; the last frame of a session also stops its refreshes. */
  destroy(): void;
}

/** A session-ended report this long after the previous one starts the reload backoff afresh. */
const RELOAD_BACKOFF_RESET_MS = 2 * 60_000;

const PAGE_TITLES: Record<PageName, string> = {
  "new-order": "Lotline: new order",
  "property-profile": "Lotline: property profile",
  "footprint-selection": "Lotline: footprint selection",
};

/**
 * Embeds a Lotline page and keeps its session alive.
 *
 * The frame is created at once; its address (with the JWT) is set when the first token arrives. Each later
 * token is handed to the open page with a `host-session-token` window message, addressed to Lotline's origin
 * only, and the page swaps it in without reloading: EVERYTHING in the page is kept — what the user typed, a
 * redrawn boundary, the map's position, an order being placed. Only when the page has already ended (the token
 * expired before the new one arrived, or the page reported `service-error` after expiry, i.e. it shows its
 * sign-in notice) is the frame reloaded with the new token; then NOTHING is kept but the parameters given here.
 *
 * When the page itself reports that its session ended (`service-session-ended`, from Lotline's `/login`), even
 * though the token still looked valid here, a fresh token is fetched at once (shared with the other frames) and
 * the frame reloaded with it. Reports that follow each other closely wait longer each time (5 s, 10 s, … 60 s), so
 * a token Lotline keeps refusing never turns into a reload loop.
 *
 * @example
 * const handle = mount({
 *   container: document.getElementById("lotline")!,
 *   page: "new-order",
 *   params: { address: "1 Main St, Springfield", external_id: "POL-1234" },
 *   lotlineUrl: "https://lotline.example",
 *   fetchToken: async () => (await fetch("/lotline/token", { method: "POST" })).json(),
 *   notice: true,
 * });
 * handle.on("service-order-complete", ({ property_id }) => showProperty(property_id));
 */
export function mount(options: MountOptions): MountHandle {
  const { container, fetchToken } = options;
  const document = container.ownerDocument;
  const window = document.defaultView;
  if (!window) throw new Error("mount: the container must belong to a document shown in a window.");
  const origin = new URL(options.lotlineUrl).origin;
  // Build one address now so a bad property_id throws here, in the host's call, not later in a timer.
  pageUrl(options.lotlineUrl, options, "");
  const clock = options.clock ?? browserClock();
  const thresholds = options.thresholds ?? DEFAULT_THRESHOLDS_MS;
  const events = createEmitter<MountEvents>(options.onEvent);
  const emit = <T extends keyof MountEvents>(event: MountEvents[T] & { type: T }) => events.emit(event.type, event);

  const iframe = createFrame(document, options);
  const noticeElement = options.notice ? createNoticeElement(document) : undefined;
  container.append(...(noticeElement ? [noticeElement, iframe] : [iframe]));

  const { session, release } = acquireSession(fetchToken, () =>
    createTokenSession({
      fetchToken,
      clock,
      refreshMarginMs: options.refreshMargin ?? defaultRefreshMargin(thresholds),
      listenForWake: (onWake) => listenForWake({ window, document }, onWake),
    }),
  );
  const timeLeft = () => session.timeLeft();
  const notice: Notice | undefined = noticeElement
    ? createNotice({
        element: noticeElement,
        clock,
        timeLeft,
        text: typeof options.notice === "object" ? options.notice.text : undefined,
      })
    : undefined;
  const countdown = createCountdown({
    clock,
    timeLeft,
    thresholdsMs: thresholds,
    onExpiring: (msLeft, threshold) => {
      notice?.show();
      emit({ type: "session-expiring", msLeft, threshold });
    },
    onExpired: () => {
      notice?.show();
      emit({ type: "session-expired" });
    },
  });

  let loaded = false;
  /** The page can no longer take a token by message (it went to its sign-in notice). */
  let ended = false;
  const load = (token: string) => {
    iframe.src = pageUrl(options.lotlineUrl, options, token);
    loaded = true;
    ended = false;
  };
  const handOver = (token: string) => {
    const message: HostSessionTokenMessage = { type: "host-session-token", token };
    iframe.contentWindow?.postMessage(message, origin);
  };

  const unsubscribe = session.subscribe((event) => {
    if (event.type === "token") {
      if (!loaded || ended || event.lapsed) load(event.token);
      else handOver(event.token);
      notice?.hide();
      emit({ type: "session-refreshed", expiresIn: event.expiresIn });
      countdown.reset();
    } else if (event.type === "failed") {
      emit({ type: "refresh-failed", error: event.error, attempt: event.attempt });
    } else {
      countdown.update();
    }
  });

  // The page went to /login while the token looked valid here (a token already expired or refused when the frame
  // loaded it): fetch a fresh one and reload the frame with it, backing off if this keeps happening.
  let destroyed = false;
  let reloads = 0;
  let lastReportAt = Number.NEGATIVE_INFINITY;
  let reloadTimer: TimerHandle | undefined;
  const reloadWithFreshToken = () => {
    ended = true;
    if (reloadTimer !== undefined) return;
    const now = clock.now();
    if (now - lastReportAt > RELOAD_BACKOFF_RESET_MS) reloads = 0;
    lastReportAt = now;
    reloads += 1;
    reloadTimer = clock.setTimeout(
      () => {
        reloadTimer = undefined;
        // A token that arrives while `ended` reloads the frame; a failed fetch is retried by the session itself.
        session.refresh().catch(() => {});
      },
      reloads === 1 ? 0 : retryDelay(reloads - 1),
    );
  };

  const stopMessages = listenForServiceMessages({
    target: window,
    frameWindow: () => iframe.contentWindow,
    origin,
    onMessage: (message) => {
      // The sign-in notice reports itself with service-error; after expiry that means the page is gone.
      if (message.type === "service-error" && session.timeLeft() === 0) ended = true;
      emit(message);
      if (message.type === "service-session-ended" && !destroyed) reloadWithFreshToken();
    },
  });

  // A later frame of a shared session starts with the token the others already have.
  const existing = session.token();
  if (existing !== undefined) {
    load(existing);
    countdown.update();
  }
  session.start();
  // A frame mounted while the shared session is failing should not sit out the rest of a backoff.
  if (existing === undefined) session.wake();

  return {
    iframe,
    on: (type, listener) => events.on(type, listener),
    timeLeft,
    refresh: () => session.refresh(),
    destroy() {
      if (destroyed) return;
      destroyed = true;
      unsubscribe();
      stopMessages();
      countdown.stop();
      notice?.stop();
      if (reloadTimer !== undefined) clock.clearTimeout(reloadTimer);
      events.clear();
      iframe.remove();
      noticeElement?.remove();
      release();
    },
  };
}

function createFrame(document: Document, options: MountOptions): HTMLIFrameElement {
  const iframe = document.createElement("iframe");
  iframe.title = options.title ?? PAGE_TITLES[options.page];
  iframe.className = "lotline-frame";
  // The page learns which host framed it (to address its messages); the host page's path and query stay private.
  iframe.referrerPolicy = "origin";
  // The pages need no camera, microphone, location, payment or other powerful feature: grant none explicitly.
  iframe.setAttribute("allow", "");
  iframe.style.width = "100%";
  iframe.style.height = options.height ?? "720px";
  iframe.style.border = "0";
  return iframe;
}

function createNoticeElement(document: Document): HTMLElement {
  const element = document.createElement("div");
  element.className = "lotline-session-notice";
  // A polite live region: announced when its wording changes, without interrupting the user.
  element.setAttribute("role", "status");
  element.hidden = true;
  return element;
}
