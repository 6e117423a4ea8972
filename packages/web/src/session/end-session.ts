import { postToHost } from "../messages/post-to-host";

let ending = false;

/**
 * Leaves the page for `/login` because its session ended (the JWT expired, or the API answered 401). `replace`
 * keeps the dead page out of the history, so Back does not return to it. Runs once however many callers notice.
 * The page tells its host itself, while it still knows the registered origins: `/login` names them only when the
 * service sent the user there with a ticket.
 */
export function endSession(reason: "expired" | "missing" = "expired"): void {
  if (ending) return;
  ending = true;
  if (reason === "expired") {
    postToHost({ type: "service-error", message: "The session has ended." });
    postToHost({ type: "service-session-ended", reason });
  }
  window.location.replace(`/login?${new URLSearchParams({ reason })}`);
}
