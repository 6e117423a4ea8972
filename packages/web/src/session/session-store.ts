import type { PageSession } from "@lotline/contract";

/** What the page knows of its session at one moment. */
export interface SessionSnapshot {
  /** The session as the server last described it (organization, host origins, forms, map settings). */
  readonly info: PageSession;
  /** The iframe JWT, kept in memory only. */
  readonly token: string;
  /** When the token expires, on the `performance.now()` clock (ms): immune to a wrong or changed system clock. */
  readonly deadline: number;
}

/** The page's session: read by the API client and the timers, replaced when the host hands over a fresh token. */
export interface SessionStore {
  get(): SessionSnapshot;
  /** Swaps in a token the server has just accepted, with the session it described (`expires_in` counted now). */
  replace(token: string, info: PageSession): void;
  /** Calls `listener` after every replacement; returns the unsubscribe function. */
  subscribe(listener: (snapshot: SessionSnapshot) => void): () => void;
}

/** The deadline of a session whose server said `expires_in` seconds just now. */
export function deadlineOf(info: PageSession, now = performance.now()): number {
  return now + info.expires_in * 1000;
}

/** A store holding the session the page started with. */
export function createSessionStore(info: PageSession, token: string): SessionStore {
  let snapshot: SessionSnapshot = { info, token, deadline: deadlineOf(info) };
  const listeners = new Set<(snapshot: SessionSnapshot) => void>();
  return {
    get: () => snapshot,
    replace(nextToken, nextInfo) {
      snapshot = { info: nextInfo, token: nextToken, deadline: deadlineOf(nextInfo) };
      for (const listener of listeners) listener(snapshot);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
