/**
 * Calls from the host page to its own server (never to Lotline: the iframe API key stays on the server).
 */

/** @returns {Promise<{lotline_url: string, lotline_origin: string}>} where Lotline is. */
export async function loadConfig() {
  return getJson("/config.json");
}

/**
 * A fresh iframe token, signed in for by the core system's server.
 * @returns {Promise<{token: string, expires: string, expires_in: number}>}
 */
export async function requestToken() {
  const response = await fetch("/token", { method: "POST" });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body.message ?? `the token request failed with ${response.status}`);
  return body;
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
