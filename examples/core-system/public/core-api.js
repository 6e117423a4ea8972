/**
 * Calls from the host page to its own server (never to Lotline: the iframe API key stays on the server).
 */

/** @returns {Promise<{lotline_url: string, lotline_origin: string}>} where Lotline is. */
export async function loadConfig() {
  return getJson("/config.json");
}

/**
 * The SDK's `fetchToken`: a fresh iframe token, signed in for by the core system's server (the iframe API key
 * stays there), as `{ token, expiresIn }`. One function for the whole page, so every frame shares one session.
 * @returns {Promise<{token: string, expiresIn: number}>}
 */
export async function fetchToken() {
  const response = await fetch("/token", { method: "POST" });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body.message ?? `the token request failed with ${response.status}`);
  return { token: body.token, expiresIn: body.expires_in };
}

/** @returns {Promise<Array<{id: string, type: string, received_at: string, payload: unknown}>>} newest first. */
export async function listReceivedWebhooks() {
  return getJson("/webhooks/received");
}

async function getJson(path) {
  const response = await fetch(path);
  if (!response.ok) throw new Error(`${path} answered ${response.status}`);
  return response.json();
}
