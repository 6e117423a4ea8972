import type { MapSettings } from "@lotline/contract";
import type { FeatureCollection } from "geojson";
import type { LayerSpecification, SourceSpecification, StyleSpecification } from "maplibre-gl";
import { COLOURS } from "./map-colours";
import { LAYERS, SOURCES } from "./map-ids";

const EMPTY: FeatureCollection = { type: "FeatureCollection", features: [] };

/**
 * The map's own style: a plain background, the deployment's raster imagery when configured, and the service's data
 * as GeoJSON (context parcels and buildings, hazard layers, the subject parcel and its buildings). No glyphs and no
 * text layers, so the map needs nothing from outside the service.
 */
export function mapStyle(settings: MapSettings): StyleSpecification {
  const sources: Record<string, SourceSpecification> = {
    [SOURCES.hazards]: geojson(),
    [SOURCES.contextParcels]: geojson(),
    [SOURCES.contextBuildings]: geojson(),
    [SOURCES.subjectParcel]: geojson(),
    [SOURCES.subjectBuildings]: geojson(),
  };
  const layers: LayerSpecification[] = [
    { id: LAYERS.background, type: "background", paint: { "background-color": COLOURS.background } },
  ];
  if (settings.imagery_url !== null) {
    sources[SOURCES.imagery] = {
      type: "raster",
      tiles: [settings.imagery_url],
      tileSize: 256,
      maxzoom: 19,
      ...(settings.imagery_attribution === null ? {} : { attribution: settings.imagery_attribution }),
    };
    layers.push({ id: LAYERS.imagery, type: "raster", source: SOURCES.imagery });
  }
  // Over imagery, parcel lines are white and neighbouring buildings translucent, so the photo shows through.
  layers.push(...dataLayers(settings.imagery_url !== null));
  return { version: 8, sources, layers };
}

function geojson(): SourceSpecification {
  return { type: "geojson", data: EMPTY };
}

function dataLayers(imagery: boolean): LayerSpecification[] {
  return [
    {
      id: LAYERS.hazardsFill,
      type: "fill",
      source: SOURCES.hazards,
      paint: { "fill-color": COLOURS.hazard, "fill-opacity": 0.12 },
    },
    {
      id: LAYERS.hazardsLine,
      type: "line",
      source: SOURCES.hazards,
      paint: { "line-color": COLOURS.hazard, "line-width": 1, "line-dasharray": [3, 2] },
    },
    {
      id: LAYERS.contextParcels,
      type: "line",
      source: SOURCES.contextParcels,
      paint: { "line-color": imagery ? "#ffffff" : COLOURS.contextParcel, "line-width": 1 },
    },
    {
      id: LAYERS.contextBuildings,
      type: "fill",
      source: SOURCES.contextBuildings,
      paint: { "fill-color": COLOURS.contextBuilding, "fill-opacity": imagery ? 0.35 : 1 },
    },
    {
      id: LAYERS.subjectParcelFill,
      type: "fill",
      source: SOURCES.subjectParcel,
      paint: { "fill-color": COLOURS.parcel, "fill-opacity": 0.08 },
    },
    {
      id: LAYERS.subjectParcelLine,
      type: "line",
      source: SOURCES.subjectParcel,
      paint: { "line-color": COLOURS.parcel, "line-width": 3 },
    },
    {
      id: LAYERS.subjectBuildingsFill,
      type: "fill",
      source: SOURCES.subjectBuildings,
      paint: {
        "fill-color": [
          "case",
          ["get", "selected"],
          COLOURS.selectedBuilding,
          ["get", "primary"],
          COLOURS.primaryBuilding,
          COLOURS.building,
        ],
        "fill-opacity": 0.9,
      },
    },
    {
      id: LAYERS.subjectBuildingsLine,
      type: "line",
      source: SOURCES.subjectBuildings,
      paint: {
        "line-color": ["case", ["get", "selected"], COLOURS.selectedOutline, "#2f3742"],
        "line-width": ["case", ["get", "selected"], 3, ["get", "primary"], 2, 1],
      },
    },
  ];
}
