import type { Clock, TimerHandle } from "./clock.js";
import { noticeText } from "./notice-text.js";

/** The part of an element the notice writes to (so tests can pass a plain object). */
export interface NoticeElement {
  hidden: boolean;
  textContent: string | null;
}

export interface NoticeOptions {
  element: NoticeElement;
  clock: Clock;
  timeLeft: () => number | null;
  /** The sentence for a time left in milliseconds; defaults to {@link noticeText}. */
  text?: (msLeft: number) => string;
}

export interface Notice {
  /** A threshold was crossed: show the notice and update it every second. */
  show(): void;
  /** A fresh token arrived: hide the notice. */
  hide(): void;
  stop(): void;
}

/**
 * Drives the ready-made notice above a frame: hidden while the session is comfortable, shown from the first
 * threshold on and re-read every second (the text itself changes only when its wording does; see
 * {@link noticeText}), hidden again when a refresh lands.
 *
 * @example
 * const notice = createNotice({ element, clock, timeLeft: () => session.timeLeft() });
 * handle.on("session-expiring", () => notice.show());
 * handle.on("session-refreshed", () => notice.hide());
 */
export function createNotice(options: NoticeOptions): Notice {
  const { element, clock } = options;
  const text = options.text ?? noticeText;
  let ticker: TimerHandle | undefined;

  const stopTicking = () => {
    if (ticker !== undefined) clock.clearTimeout(ticker);
    ticker = undefined;
  };

  const render = () => {
    const left = options.timeLeft() ?? 0;
    const sentence = text(left);
    // Writing the same text again would make some screen readers repeat it.
    if (element.textContent !== sentence) element.textContent = sentence;
    element.hidden = false;
    stopTicking();
    if (left > 0) ticker = clock.setTimeout(render, 1000);
  };

  element.hidden = true;
  return {
    show: render,
    hide() {
      stopTicking();
      element.hidden = true;
    },
    stop: stopTicking,
  };
}
