/**
 * Query parameters that carry a credential or a token, by their decoded, lower-case name. Such a parameter is
 * redacted from every logged URL, and the credential endpoints refuse a request that has one: a URL ends up in
 * proxy logs, browser history and Referer headers, where no secret belongs.
 */
const CREDENTIAL_PARAMETERS: ReadonlySet<string> = new Set([
  "jwt",
  "token",
  "access_token",
  "refresh_token",
  "id_token",
  "client_secret",
  "client_assertion",
  "assertion",
  "password",
  "secret",
  "api_key",
  "apikey",
  "iframe_api_key",
  "iframe_key",
]);

/** Decodings tried on a name, so `%256Awt` is caught as well as `%6Awt`. */
const MAX_DECODINGS = 3;

/** The credential parameters in `url`'s query, by their decoded name (however they were percent-encoded). */
export function credentialParametersIn(url: string): string[] {
  return queryParts(url)
    .map((part) => decodedName(part))
    .filter((name): name is string => name !== undefined && CREDENTIAL_PARAMETERS.has(name));
}

/** `url` with the value of every credential parameter replaced by `[redacted]`; the rest as it came. */
export function redactCredentials(url: string): string {
  const start = url.indexOf("?");
  if (start === -1) return url;
  const redacted = queryParts(url).map((part) => {
    const equals = part.indexOf("=");
    if (equals === -1) return part;
    const name = decodedName(part);
    // A name that cannot be decoded is redacted too: better a lost value than a leaked one.
    return name === undefined || CREDENTIAL_PARAMETERS.has(name) ? `${part.slice(0, equals)}=[redacted]` : part;
  });
  return `${url.slice(0, start)}?${redacted.join("&")}`;
}

function queryParts(url: string): string[] {
  const start = url.indexOf("?");
  return start === -1 ? [] : url.slice(start + 1).split("&");
}

/** The parameter's name decoded as a query string is (`+` is a space), lower-case; undefined if it is malformed. */
function decodedName(part: string): string | undefined {
  const equals = part.indexOf("=");
  let name = (equals === -1 ? part : part.slice(0, equals)).replaceAll("+", " ");
  try {
    for (let i = 0; i < MAX_DECODINGS && name.includes("%"); i++) name = decodeURIComponent(name);
  } catch {
    return undefined;
  }
  return name.trim().toLowerCase();
}
