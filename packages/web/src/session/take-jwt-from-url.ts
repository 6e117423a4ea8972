/**
 * Takes the iframe JWT out of the address bar: reads the `jwt` query parameter and at once replaces the page's
 * URL with one that lacks it (other parameters kept), so the token does not linger in history, in a copied link or
 * in a screenshot. Returns the token, or undefined when the URL has none.
 */
export function takeJwtFromUrl(): string | undefined {
  const url = new URL(window.location.href);
  const token = url.searchParams.get("jwt");
  if (token === null) return undefined;
  url.searchParams.delete("jwt");
  window.history.replaceState(window.history.state, "", `${url.pathname}${url.search}${url.hash}`);
  return token === "" ? undefined : token;
}
