import type { GeoJsonArea } from "@lotline/contract";

/** A building of the subject lot as the map draws it. */
export interface SubjectBuilding {
  building_id: number;
  footprint: GeoJsonArea;
  /** The lot's primary building (drawn darker). */
  primary: boolean;
  /** Selected by the user, or insured by the policy (drawn highlighted). */
  selected: boolean;
  /** Shown on the footprint, matching the building's number in the page's list; none when the page lists none. */
  label?: { number: number; at: { lat: number; lon: number } };
}
