import type { IncomingMessage, ServerResponse } from "node:http";
import { fetchIframeToken } from "@lotline/host-sdk/server";
import { type Env, setting } from "./settings.js";

/**
 * `POST /lotline/token` on your backend, called by the browser's `fetchToken`. The iframe API key stays here.
 * `isSignedIn` is your application's own check: whoever can call this endpoint gets a Lotline session.
 */
export function iframeTokenHandler(env: Env, isSignedIn: (request: IncomingMessage) => boolean) {
  const options = {
    iframeAuthUrl: setting(env, "LOTLINE_URL"),
    orgId: setting(env, "LOTLINE_ORG_ID"),
    iframeApiKey: setting(env, "LOTLINE_IFRAME_API_KEY"),
  };
  return async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    if (request.method !== "POST") return void response.writeHead(405, { allow: "POST" }).end();
    if (!isSignedIn(request)) return void response.writeHead(401).end();
    try {
      const { token, expiresIn } = await fetchIframeToken(options);
      response.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
      response.end(JSON.stringify({ token, expiresIn }));
    } catch (error) {
      console.error("Lotline iframe sign-in failed", error);
      response.writeHead(502).end();
    }
  };
}
