/** The map's palette: muted context, a strong subject parcel, and selected buildings that stand out from both. */
export const COLOURS = {
  background: "#eef1ea",
  contextParcel: "#9aa39a",
  contextBuilding: "#c9cdc6",
  hazard: "#d9480f",
  parcel: "#1c64c8",
  building: "#8792a2",
  primaryBuilding: "#4b5565",
  selectedBuilding: "#e8a10c",
  selectedOutline: "#8a4b00",
  pin: "#c2255c",
} as const;
