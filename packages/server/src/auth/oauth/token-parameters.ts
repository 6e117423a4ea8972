import { invalidRequest } from "./oauth-error.js";

/**
 * The token request's parameters from a JSON or form body, as strings. RFC 6749 §3.2: a parameter sent twice
 * is an error, and so is a value that is not a string.
 */
export function readTokenParameters(body: unknown): Record<string, string> {
  if (body === undefined || body === null) return {};
  if (typeof body !== "object" || Array.isArray(body)) {
    throw invalidRequest("the body must be a JSON object or a form");
  }
  const parameters: Record<string, string> = {};
  for (const [name, value] of Object.entries(body)) {
    if (Array.isArray(value)) throw invalidRequest(`parameter ${name} is repeated`);
    if (typeof value !== "string") throw invalidRequest(`parameter ${name} must be a string`);
    if (value !== "") parameters[name] = value;
  }
  return parameters;
}
