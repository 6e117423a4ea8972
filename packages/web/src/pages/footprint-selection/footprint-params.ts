/** The query parameters of the footprint selection page (INTERFACE.md §4.3), besides `jwt`. */
export interface FootprintParams {
  address: string;
  /** Where the selection is delivered by webhook; empty when the host gave none. */
  callback_url: string;
  external_id: string;
}

/** The page's parameters from its query string; absent ones are empty. */
export function readFootprintParams(search: string): FootprintParams {
  const params = new URLSearchParams(search);
  const read = (name: keyof FootprintParams) => params.get(name)?.trim() ?? "";
  return { address: read("address"), callback_url: read("callback_url"), external_id: read("external_id") };
}
