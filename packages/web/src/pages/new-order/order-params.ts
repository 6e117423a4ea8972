/** The query parameters of the new order page (INTERFACE.md §4.3), besides `jwt`. */
export interface OrderParams {
  address: string;
  external_id: string;
  secondary_external_id: string;
  insured_name: string;
  /** Passed through to the order: where its webhook goes. */
  callback_url: string;
}

/** The page's parameters from its query string; absent ones are empty. */
export function readOrderParams(search: string): OrderParams {
  const params = new URLSearchParams(search);
  const read = (name: keyof OrderParams) => params.get(name)?.trim() ?? "";
  return {
    address: read("address"),
    external_id: read("external_id"),
    secondary_external_id: read("secondary_external_id"),
    insured_name: read("insured_name"),
    callback_url: read("callback_url"),
  };
}
