import type { AddressCandidate } from "@lotline/contract";
import type { Selectable } from "kysely";
import type { AddressTable } from "../../db/schema.js";
import { addressLine } from "../store/address-line.js";

export type { AddressCandidate };

export function toCandidate(row: Selectable<AddressTable>, score: number): AddressCandidate {
  return {
    address_id: row.address_id,
    address: addressLine(row),
    score: Math.round(score * 1000) / 1000,
    location: { lat: row.lat, lon: row.lon },
    parcel_id: row.parcel_id,
  };
}
