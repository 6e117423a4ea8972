/** The GeoJSON sources of a page's map: the service's own data, nothing from outside. */
export const SOURCES = {
  imagery: "imagery",
  contextParcels: "context-parcels",
  contextBuildings: "context-buildings",
  hazards: "hazard-layers",
  subjectParcel: "subject-parcel",
  subjectBuildings: "subject-buildings",
} as const;

/** The layers, bottom to top. */
export const LAYERS = {
  background: "background",
  imagery: "imagery",
  hazardsFill: "hazard-layers-fill",
  hazardsLine: "hazard-layers-line",
  contextParcels: "context-parcels-line",
  contextBuildings: "context-buildings-fill",
  subjectParcelFill: "subject-parcel-fill",
  subjectParcelLine: "subject-parcel-line",
  subjectBuildingsFill: "subject-buildings-fill",
  subjectBuildingsLine: "subject-buildings-line",
} as const;
