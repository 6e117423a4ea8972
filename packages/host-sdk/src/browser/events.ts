import type { ServiceMessageOf, ServiceMessageType } from "./generated/messages.js";

/** A time-left threshold was crossed (once per token and threshold). */
export interface SessionExpiringEvent {
  type: "session-expiring";
  /** Milliseconds the token has left. */
  msLeft: number;
  /** The threshold crossed, in milliseconds. */
  threshold: number;
}

/** A token arrived (the first one too) and was handed to the page. */
export interface SessionRefreshedEvent {
  type: "session-refreshed";
  /** Its lifetime in seconds, as the server gave it. */
  expiresIn: number;
}

/** The token expired before a new one arrived: the page now shows its sign-in notice. Refreshing goes on. */
export interface SessionExpiredEvent {
  type: "session-expired";
}

/** Fetching a token failed. Another attempt is already scheduled; `attempt` counts consecutive failures. */
export interface RefreshFailedEvent {
  type: "refresh-failed";
  error: unknown;
  attempt: number;
}

/**
 * Everything a mounted frame reports, by type: the four session events and the page's window messages
 * (typed from the shared contract, e.g. `service-order-complete` → `{ type, property_id }`).
 */
export type MountEvents = {
  "session-expiring": SessionExpiringEvent;
  "session-refreshed": SessionRefreshedEvent;
  "session-expired": SessionExpiredEvent;
  "refresh-failed": RefreshFailedEvent;
} & { [T in ServiceMessageType]: ServiceMessageOf<T> };

/** Any one event of {@link MountEvents}, discriminated by `type`. */
export type MountEvent = MountEvents[keyof MountEvents];
