import type { PageSession } from "@lotline/contract";
import { isHostMessage } from "@lotline/contract/messages";
import type { SessionStore } from "./session-store";

/** Asks the server whether a token is good, with that token; rejects when it is not. */
export type VerifyToken = (token: string) => Promise<PageSession>;

/**
 * Accepts a fresh iframe JWT from the host (`{type: "host-session-token", token}`) so a long session goes on without
 * a reload. The message counts only when it comes from `window.parent` at one of the registered host origins, and
 * the token is swapped in only after the server has accepted it (`GET /embed/api/session` with the new token); a
 * refused token changes nothing. Returns the function that stops listening.
 */
export function listenForHostTokens(store: SessionStore, verify: VerifyToken): () => void {
  let latest = 0;
  const onMessage = async (event: MessageEvent) => {
    if (window.parent === window || event.source !== window.parent) return;
    if (!store.get().info.host_origins.includes(event.origin)) return;
    if (!isHostMessage(event.data)) return;
    const { token } = event.data;
    const attempt = ++latest;
    try {
      const info = await verify(token);
      // Two tokens in quick succession: the later one wins even if its check answers first.
      if (attempt === latest) store.replace(token, info);
    } catch {
      // A token the server refuses is ignored; the current one stays until its own deadline.
    }
  };
  window.addEventListener("message", onMessage);
  return () => window.removeEventListener("message", onMessage);
}
