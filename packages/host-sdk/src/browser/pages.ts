/**
 * The embeddable pages and the query parameters each takes (INTERFACE.md §4.3). Only `jwt` is required by the
 * service; the SDK adds it. Empty values are left out of the address.
 */
export interface PageParams {
  "new-order": {
    /** The location to order for, as one line. */
    address?: string;
    external_id?: string;
    secondary_external_id?: string;
    insured_name?: string;
    /** Where the service delivers this order's webhooks. */
    callback_url?: string;
  };
  "property-profile": {
    /** The property's numeric id, as sent in `service-order-complete`. Goes into the path. */
    property_id: number | string;
  };
  "footprint-selection": {
    address?: string;
    /** Where the service delivers the footprint submission by webhook. */
    callback_url?: string;
    external_id?: string;
  };
}

/** `"new-order" | "property-profile" | "footprint-selection"`. */
export type PageName = keyof PageParams;

/** A page and its parameters, checked together: `{ page: "property-profile", params: { property_id: 42 } }`. */
export type PageSelection = { [P in PageName]: { page: P; params: PageParams[P] } }[PageName];
