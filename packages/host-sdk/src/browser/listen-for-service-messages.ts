import { isServiceMessage, type ServiceMessage } from "./generated/messages.js";

/** The part of `window` the listener needs (so tests can pass a small fake). */
export interface MessageTarget {
  addEventListener(type: "message", listener: (event: MessageEvent) => void): void;
  removeEventListener(type: "message", listener: (event: MessageEvent) => void): void;
}

export interface ServiceMessageOptions {
  /** The host page's window. */
  target: MessageTarget;
  /** The framed page's window, read at each message because a reload or navigation may replace it. */
  frameWindow: () => MessageEventSource | null | undefined;
  /** Lotline's origin, e.g. `https://lotline.example`. */
  origin: string;
  onMessage: (message: ServiceMessage) => void;
}

/**
 * Listens for the window messages of ONE framed Lotline page. A message counts only when it comes from that
 * frame's window (`event.source`) — not from another frame, even another Lotline frame — AND from Lotline's
 * origin (`event.origin`), AND has the exact shape of one of the service messages; anything else is
 * dropped without a word. Returns the function that stops listening.
 *
 * @example
 * const stop = listenForServiceMessages({
 *   target: window, frameWindow: () => iframe.contentWindow, origin: "https://lotline.example",
 *   onMessage: (message) => console.log(message.type),
 * });
 */
export function listenForServiceMessages(options: ServiceMessageOptions): () => void {
  const listener = (event: MessageEvent) => {
    const frameWindow = options.frameWindow();
    if (!frameWindow || event.source !== frameWindow) return;
    if (event.origin !== options.origin) return;
    if (!isServiceMessage(event.data)) return;
    options.onMessage(event.data);
  };
  options.target.addEventListener("message", listener);
  return () => options.target.removeEventListener("message", listener);
}
