/** Lotline's embeddable pages: their paths and the query parameters each takes (INTERFACE.md §4.3). */
export const PAGES = {
  "new-order": {
    label: "New order",
    path: () => "/property-profile/new-order",
    params: ["address", "external_id", "secondary_external_id", "insured_name", "callback_url"],
  },
  "property-profile": {
    label: "Property profile",
    path: (values) => `/property-profile/${encodeURIComponent(values.property_id ?? "")}`,
    params: [],
  },
  "footprint-selection": {
    label: "Footprint selection",
    path: () => "/embed/footprint-selection",
    params: ["address", "callback_url", "external_id"],
  },
};

/**
 * The address of a page with its token and the parameters given (empty ones are left out).
 * @param {string} lotlineUrl
 * @param {keyof typeof PAGES} page
 * @param {Record<string, string>} values
 * @param {string} token
 */
export function pageUrl(lotlineUrl, page, values, token) {
  const definition = PAGES[page];
  const query = new URLSearchParams({ jwt: token });
  for (const name of definition.params) {
    const value = values[name]?.trim();
    if (value) query.set(name, value);
  }
  return `${lotlineUrl}${definition.path(values)}?${query}`;
}

/**
 * What is missing before a page can open, in words for the user, or undefined.
 * @param {keyof typeof PAGES} page
 * @param {Record<string, string>} values
 */
export function missingInput(page, values) {
  if (page === "property-profile" && !/^[1-9]\d*$/.test(values.property_id?.trim() ?? "")) {
    return "The property profile needs a property id (a whole number, as sent in service-order-complete).";
  }
  return undefined;
}
