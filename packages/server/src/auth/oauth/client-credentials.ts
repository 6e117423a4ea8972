import { type BasicCredentials, MalformedBasicError, parseBasicCredentials } from "../basic-credentials.js";
import { invalidClient, invalidRequest } from "./oauth-error.js";

export interface PresentedClient {
  clientId: string;
  clientSecret: string;
  method: "client_secret_basic" | "client_secret_post";
}

/**
 * Which client the request claims to be, by `client_secret_basic` or `client_secret_post` — exactly one of
 * them (RFC 6749 §2.3.1). A `client_id` in the body beside Basic credentials must name the same client.
 */
export function presentedClient(
  authorization: string | undefined,
  parameters: Record<string, string>,
): PresentedClient {
  let basic: BasicCredentials | undefined;
  try {
    basic = parseBasicCredentials(authorization, { formEncoded: true });
  } catch (error) {
    if (error instanceof MalformedBasicError) throw invalidRequest(error.message);
    throw error;
  }
  const { client_id: bodyId, client_secret: bodySecret } = parameters;
  if (basic) {
    if (bodySecret !== undefined) {
      throw invalidRequest("use one client authentication method: Basic credentials or client_secret, not both");
    }
    if (bodyId !== undefined && bodyId !== basic.username) {
      throw invalidRequest("client_id in the body does not match the Basic credentials");
    }
    return { clientId: basic.username, clientSecret: basic.password, method: "client_secret_basic" };
  }
  if (bodyId === undefined || bodySecret === undefined) throw invalidClient();
  return { clientId: bodyId, clientSecret: bodySecret, method: "client_secret_post" };
}
