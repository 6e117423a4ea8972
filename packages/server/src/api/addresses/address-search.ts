import type { AddressSearchResponse } from "@lotline/contract";
import { type Static, Type } from "typebox";
import type { Database } from "../../db/database.js";
import { searchAddresses } from "../../geo/locate/search-addresses.js";

/** The query of an address search, on the data API and the page API alike. */
export const AddressSearchQuery = Type.Object({
  q: Type.String({ minLength: 1, maxLength: 200, description: "What the user has typed so far." }),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, default: 5 })),
});
export type AddressSearchQuery = Static<typeof AddressSearchQuery>;

/** The answer to an address search: imported addresses matching a typed (possibly half-typed) one, best first. */
export async function answerAddressSearch(
  database: Database,
  { q, limit }: AddressSearchQuery,
): Promise<AddressSearchResponse> {
  return { data: await searchAddresses(database, q, limit ?? 5) };
}
