import type { PageSession } from "@lotline/contract";
import { type ApiClient, createApiClient } from "../api/api-client";
import { getSession } from "../api/get-session";
import { setHostOrigins } from "../messages/host-origins";
import { endSession } from "./end-session";
import { listenForHostTokens } from "./listen-for-host-tokens";
import { readJsonScript } from "./read-json-script";
import { createSessionStore, type SessionStore } from "./session-store";
import { takeJwtFromUrl } from "./take-jwt-from-url";
import { watchDeadline } from "./watch-deadline";

/** The id of the element holding the PageSession JSON the server injects into each page. */
export const SESSION_ELEMENT_ID = "lotline-session";

/** What every page (but `/login`) works with: its session and a page API client speaking for it. */
export interface PageContext {
  session: SessionStore;
  api: ApiClient;
}

/**
 * Starts a page's session: reads the injected PageSession, takes the JWT out of the address bar into memory,
 * registers the host origins for window messages, sends the user to `/login` when the deadline passes or the API
 * answers 401, and listens for fresh tokens from the host. Undefined when the page has no session to start (it
 * has then already left for `/login`).
 */
export function startPageSession(): PageContext | undefined {
  const info = readJsonScript<PageSession>(SESSION_ELEMENT_ID);
  const token = takeJwtFromUrl();
  if (info === undefined || token === undefined) {
    endSession("missing");
    return undefined;
  }
  setHostOrigins(info.host_origins);
  const session = createSessionStore(info, token);
  session.subscribe((snapshot) => setHostOrigins(snapshot.info.host_origins));
  const end = () => endSession();
  const api = createApiClient({ token: () => session.get().token, onSessionEnded: end });
  watchDeadline(session, end);
  listenForHostTokens(session, (fresh) =>
    // The candidate token is checked on its own: its 401 must not end the session the current token still holds.
    getSession(createApiClient({ token: () => fresh, onSessionEnded: () => {} })),
  );
  return { session, api };
}
