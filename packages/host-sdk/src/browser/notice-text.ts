/**
 * The sentence the ready-made notice shows. Whole minutes above one minute and "less than a minute" below: the
 * notice is a live region (`role="status"`), and a screen reader announces every change of its text, so it
 * changes at most once a minute until the last one instead of every second.
 *
 * @example
 * noticeText(299_000) // "Your session ends in 5 minutes."
 * noticeText(61_000) // "Your session ends in 2 minutes."
 * noticeText(60_000) // "Your session ends in 1 minute."
 * noticeText(59_000) // "Your session ends in less than a minute."
 * noticeText(0) // "Your session has ended. Reconnecting…"
 */
export function noticeText(msLeft: number): string {
  if (msLeft <= 0) return "Your session has ended. Reconnecting…";
  if (msLeft < 60_000) return "Your session ends in less than a minute.";
  const minutes = Math.ceil(msLeft / 60_000);
  return `Your session ends in ${minutes} ${minutes === 1 ? "minute" : "minutes"}.`;
}
