import type { PageSelection } from "./pages.js";

const QUERY_PARAMS = {
  "new-order": ["address", "external_id", "secondary_external_id", "insured_name", "callback_url"],
  "property-profile": [],
  "footprint-selection": ["address", "callback_url", "external_id"],
} as const;

/**
 * The address of a page with its token: `${lotlineUrl}${path}?jwt=…&…`. Unknown and empty parameters are left
 * out; the property id must be a positive whole number, since anything else would open a page that can only fail.
 *
 * @example
 * pageUrl("https://lotline.example", { page: "property-profile", params: { property_id: 42 } }, "eyJ…")
 * // "https://lotline.example/property-profile/42?jwt=eyJ…"
 * pageUrl("https://lotline.example/", { page: "new-order", params: { address: "1 Main St" } }, "eyJ…")
 * // "https://lotline.example/property-profile/new-order?jwt=eyJ…&address=1+Main+St"
 */
export function pageUrl(lotlineUrl: string, selection: PageSelection, token: string): string {
  const base = lotlineUrl.replace(/\/+$/, "");
  const query = new URLSearchParams({ jwt: token });
  const params = selection.params as Record<string, string | number | undefined>;
  for (const name of QUERY_PARAMS[selection.page]) {
    const value = String(params[name] ?? "").trim();
    if (value !== "") query.set(name, value);
  }
  return `${base}${pagePath(selection)}?${query}`;
}

function pagePath(selection: PageSelection): string {
  switch (selection.page) {
    case "new-order":
      return "/property-profile/new-order";
    case "footprint-selection":
      return "/embed/footprint-selection";
    case "property-profile": {
      const id = String(selection.params.property_id).trim();
      if (!/^[1-9]\d*$/.test(id)) {
        throw new TypeError(`property_id must be a positive whole number, not ${JSON.stringify(id)}`);
      }
      return `/property-profile/${id}`;
    }
  }
}
