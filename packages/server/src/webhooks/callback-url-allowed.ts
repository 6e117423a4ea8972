import { normalizeCallbackPrefix } from "../tenancy/callback-prefixes.js";

/**
 * Whether `url` may receive an organization's webhooks, given its registered callback prefixes (DESIGN.md §8).
 *
 * The URL must parse as an absolute `http:` or `https:` URL without credentials or fragment. Each prefix is
 * normalized as `normalizeCallbackPrefix` normalizes it (unparseable ones admit nothing), and the URL is
 * admitted when, for one prefix, on the WHATWG-parsed components:
 * - the origins are equal: scheme, host (lower-cased, IDNA, IP literals canonical) and port (default dropped),
 *   so `https://a.example.com` never admits `https://a.example.com.evil.net/` nor `http://a.example.com/`;
 * - the URL's path equals the prefix's path, or continues it at a segment boundary: after a prefix path
 *   ending in `/`, or with a `/` after one that does not (`/hooks` admits `/hooks` and `/hooks/a`, not
 *   `/hooks2`). Dot segments (`/hooks/../admin`, `%2e%2e`) are resolved by the parser before comparing;
 * - when the prefix carries a query, the path is equal and the URL's query equals it or continues it with
 *   `&`; a prefix without a query admits any query.
 */
export function callbackUrlAllowed(url: string, prefixes: readonly string[]): boolean {
  const target = parse(url);
  if (target === undefined) return false;
  return prefixes.some((prefix) => {
    const allowed = parsePrefix(prefix);
    return allowed !== undefined && admits(allowed, target);
  });
}

function parse(input: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return undefined;
  // `href` holds a `#` only when there is a fragment, even an empty one (elsewhere it is percent-encoded).
  if (url.username || url.password || url.href.includes("#")) return undefined;
  return url;
}

function parsePrefix(prefix: string): URL | undefined {
  try {
    return new URL(normalizeCallbackPrefix(prefix));
  } catch {
    return undefined;
  }
}

function admits(prefix: URL, url: URL): boolean {
  if (url.origin !== prefix.origin) return false;
  if (prefix.search) {
    return (
      url.pathname === prefix.pathname && (url.search === prefix.search || url.search.startsWith(`${prefix.search}&`))
    );
  }
  const path = prefix.pathname;
  return url.pathname === path || url.pathname.startsWith(path.endsWith("/") ? path : `${path}/`);
}
