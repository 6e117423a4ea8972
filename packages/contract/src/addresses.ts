import { type Static, Type } from "typebox";

/** An imported address offered as a match for a search, best first. */
export const AddressCandidate = Type.Object({
  address_id: Type.Integer(),
  address: Type.String({ description: "The canonical one-line form, e.g. `120 GORE ST, CAMBRIDGE, MA`." }),
  score: Type.Number({ minimum: 0, maximum: 1, description: "How well it matches the query: 1 is exact." }),
  location: Type.Object({ lat: Type.Number(), lon: Type.Number() }),
  parcel_id: Type.Union([Type.Integer(), Type.Null()]),
});
export type AddressCandidate = Static<typeof AddressCandidate>;

/** `GET /v1/addresses?q=`: candidates for a typed address, for autocomplete. */
export const AddressSearchResponse = Type.Object({ data: Type.Array(AddressCandidate) });
export type AddressSearchResponse = Static<typeof AddressSearchResponse>;
