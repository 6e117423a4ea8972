import type { PageSession } from "@lotline/contract";
import type { ApiClient } from "./api-client";

/** `GET /embed/api/session`: the session of the token the client sends (also how a fresh token is checked). */
export function getSession(api: ApiClient): Promise<PageSession> {
  return api.request<PageSession>("/session");
}
