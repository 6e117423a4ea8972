/** The two halves of an `Authorization: Basic` header. */
export interface BasicCredentials {
  username: string;
  password: string;
}

/**
 * Parses `Authorization: Basic …`, splitting at the first colon (a password may hold colons).
 * Returns `undefined` when the header uses another scheme or is absent; throws {@link MalformedBasicError}
 * when it says Basic but is not valid base64 of `user:password`.
 * With `formEncoded`, each half is then form-decoded as RFC 6749 Appendix B requires for OAuth clients.
 */
export function parseBasicCredentials(
  header: string | undefined,
  { formEncoded = false } = {},
): BasicCredentials | undefined {
  const match = header?.match(/^Basic(?:\s+(.*))?$/i);
  if (!match) return undefined;
  const encoded = match[1]?.trim() ?? "";
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || encoded.length % 4 !== 0) {
    throw new MalformedBasicError("the Basic credentials are not base64");
  }
  const decoded = Buffer.from(encoded, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) throw new MalformedBasicError("the Basic credentials lack the colon between user and password");
  const username = decoded.slice(0, colon);
  const password = decoded.slice(colon + 1);
  const credentials = formEncoded
    ? { username: formDecode(username), password: formDecode(password) }
    : { username, password };
  // No id or secret holds NUL or bytes that are not UTF-8 (decoded as U+FFFD); PostgreSQL cannot even compare NUL.
  if (/[\0\ufffd]/.test(credentials.username + credentials.password)) {
    throw new MalformedBasicError("the Basic credentials hold NUL or bytes that are not UTF-8");
  }
  return credentials;
}

export class MalformedBasicError extends Error {
  override name = "MalformedBasicError";
}

function formDecode(value: string): string {
  try {
    return decodeURIComponent(value.replaceAll("+", " "));
  } catch {
    throw new MalformedBasicError("the Basic credentials are not form-encoded");
  }
}
