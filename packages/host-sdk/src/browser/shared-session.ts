import type { FetchToken } from "./fetch-token.js";
import type { TokenSession } from "./token-session.js";

interface Entry {
  session: TokenSession;
  users: number;
}

// Keyed by the function itself: frames mounted with the same fetchToken share one token and one refresh, so a
// page with three frames asks the host's backend once per refresh, not three times. A WeakMap lets a function
// nobody holds any more take its (stopped) session with it.
const sessions = new WeakMap<FetchToken, Entry>();

/** A session borrowed from the shared pool, with the function that gives it back. */
export interface SharedSession {
  session: TokenSession;
  /** Gives the session back; the last user to release it stops it (timers, listeners, retries). */
  release(): void;
}

/**
 * The token session for `fetchToken`, created with `create` by its first user and shared by every later one
 * (whose options are then ignored: the first mount's refresh margin and clock win).
 *
 * @example
 * const { session, release } = acquireSession(fetchToken, () => createTokenSession({ fetchToken, clock }));
 * session.start();
 * // … later, when the frame goes away:
 * release();
 */
export function acquireSession(fetchToken: FetchToken, create: () => TokenSession): SharedSession {
  let entry = sessions.get(fetchToken);
  if (entry === undefined) {
    entry = { session: create(), users: 0 };
    sessions.set(fetchToken, entry);
  }
  entry.users += 1;
  const taken = entry;
  let released = false;
  return {
    session: taken.session,
    release() {
      if (released) return;
      released = true;
      taken.users -= 1;
      if (taken.users > 0) return;
      taken.session.stop();
      if (sessions.get(fetchToken) === taken) sessions.delete(fetchToken);
    },
  };
}
