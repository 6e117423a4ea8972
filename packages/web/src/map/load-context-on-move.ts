import type { Attribution, MapContext } from "@lotline/contract";
import type { FeatureCollection } from "geojson";
import type { GeoJSONSource, Map as MapLibreMap } from "maplibre-gl";
import type { ApiClient } from "../api/api-client";
import { type Bbox, getMapContext } from "../api/get-map-context";
import { clampBbox } from "./clamp-bbox";
import { SOURCES } from "./map-ids";

/** Below this zoom the view spans too many parcels to be worth drawing; the context is left as it was. */
export const CONTEXT_MIN_ZOOM = 15;
/** How long the map must rest before its context is asked for, so a drag asks once, not on every frame. */
const DEBOUNCE_MS = 250;

/**
 * Keeps the map's context (neighbouring parcels and buildings, hazard layers) in step with the view: after each
 * move, once the map rests at zoom 15 or closer, asks `GET /embed/api/map/context` for the view (clamped to the
 * API's limit), dropping a request that a newer move has made stale. Reports each answer's attributions.
 * Returns the function that stops it.
 */
export function loadContextOnMove(
  map: MapLibreMap,
  api: ApiClient,
  onAttributions: (attributions: readonly Attribution[]) => void,
): () => void {
  let timer: number | undefined;
  let inFlight: AbortController | undefined;

  const load = async () => {
    if (map.getZoom() < CONTEXT_MIN_ZOOM) return;
    inFlight?.abort();
    const controller = new AbortController();
    inFlight = controller;
    try {
      const context = await getMapContext(api, clampBbox(viewBbox(map)), controller.signal);
      if (controller.signal.aborted) return;
      showContext(map, context);
      onAttributions(context.attribution);
    } catch {
      // The context is decoration: a failed or stale load leaves the previous one on the map.
    }
  };
  const schedule = () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(load, DEBOUNCE_MS);
  };

  map.on("moveend", schedule);
  schedule();
  return () => {
    map.off("moveend", schedule);
    window.clearTimeout(timer);
    inFlight?.abort();
  };
}

function viewBbox(map: MapLibreMap): Bbox {
  const bounds = map.getBounds();
  return [bounds.getWest(), bounds.getSouth(), bounds.getEast(), bounds.getNorth()];
}

function showContext(map: MapLibreMap, context: MapContext): void {
  setData(map, SOURCES.contextParcels, context.parcels);
  setData(map, SOURCES.contextBuildings, context.buildings);
  setData(map, SOURCES.hazards, context.layers);
}

function setData(map: MapLibreMap, sourceId: string, data: unknown): void {
  map.getSource<GeoJSONSource>(sourceId)?.setData(asFeatureCollection(data));
}

function asFeatureCollection(data: unknown): FeatureCollection {
  const collection = data as Partial<FeatureCollection> | null;
  return collection?.type === "FeatureCollection" && Array.isArray(collection.features)
    ? (collection as FeatureCollection)
    : { type: "FeatureCollection", features: [] };
}
