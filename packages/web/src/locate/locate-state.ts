import type { AddressCandidate } from "@lotline/contract";
import type { LatLon } from "../map/create-map";

/** Where the property is, once known, and how the page learnt it. */
export interface Located {
  location: LatLon;
  /** The address on file for it (the chosen candidate's), or null when the user placed it on the map. */
  address: string | null;
  how: "address" | "map";
}

/** Where a page is in finding the property. */
export type LocateState =
  /** No address to look up: the user searches or clicks the map. */
  | { status: "idle" }
  | { status: "searching"; query: string }
  /** Several addresses match: the user picks one (or clicks the map). */
  | { status: "choose"; query: string; candidates: AddressCandidate[] }
  /** Nothing matches: the user clicks the map or searches again. `near` is a place worth showing, if any. */
  | { status: "not-found"; query: string; near: LatLon | null }
  | { status: "error"; message: string }
  | ({ status: "located" } & Located);
