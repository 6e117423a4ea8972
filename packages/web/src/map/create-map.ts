import "./setup-maplibre";
import type { Attribution, GeoJsonArea, MapSettings } from "@lotline/contract";
import type { Feature, FeatureCollection, Geometry } from "geojson";
import {
  AttributionControl,
  type GeoJSONSource,
  Map as MapLibreMap,
  type MapMouseEvent,
  Marker,
  NavigationControl,
} from "maplibre-gl";
import type { ApiClient } from "../api/api-client";
import { areaBbox } from "./area-bbox";
import { attributionLines } from "./attribution-lines";
import { loadContextOnMove } from "./load-context-on-move";
import { COLOURS } from "./map-colours";
import { LAYERS, SOURCES } from "./map-ids";
import { mapStyle } from "./map-style";
import { markParcelDrawnWhenIdle } from "./mark-parcel-drawn";
import type { SubjectBuilding } from "./subject-building";

export interface LatLon {
  lat: number;
  lon: number;
}

/** A page's map of one lot: what the pages draw on it and hear from it. */
export interface LotMap {
  /** The MapLibre map, for what this interface does not cover (drawing). */
  readonly map: MapLibreMap;
  /** Draws the subject parcel (null clears it); flags `data-parcel-drawn` once it is on screen. */
  showParcel(boundary: GeoJsonArea | null, attribution?: Attribution | null): void;
  /** Draws the lot's buildings in their primary and selected states. */
  showBuildings(buildings: readonly SubjectBuilding[]): void;
  /** Puts the pin at the property's location (null removes it). */
  showPin(location: LatLon | null): void;
  /** Moves the view to the area, or to the point at street level when there is no area. */
  fitTo(area: GeoJsonArea | null, location?: LatLon | null): void;
  /** Calls `handler` with the location of every click on the map; returns the unsubscribe function. */
  onMapClick(handler: (location: LatLon) => void): () => void;
  /** Calls `handler` with the id of a subject building clicked; returns the unsubscribe function. */
  onBuildingClick(handler: (buildingId: number) => void): () => void;
  remove(): void;
}

export interface CreateMapOptions {
  settings: MapSettings;
  api: ApiClient;
}

/** The view before the page knows where the property is: the contiguous United States. */
const OVERVIEW = { center: [-98.5, 39.5] as [number, number], zoom: 3 };
const FIT_PADDING = 32;

/**
 * Creates a page's map in `container` with our own style (see {@link mapStyle}), the data's attribution, a pin, and
 * the neighbouring context loaded as the view moves. Resolves once the style is loaded and the map can be drawn on.
 */
export async function createMap(container: HTMLElement, { settings, api }: CreateMapOptions): Promise<LotMap> {
  const map = new MapLibreMap({
    container,
    style: mapStyle(settings),
    ...OVERVIEW,
    maxZoom: 21,
    attributionControl: false,
    dragRotate: false,
    pitchWithRotate: false,
    touchPitch: false,
    // In an iframe the page itself must still scroll: the map zooms with Ctrl + wheel, pans with two fingers.
    cooperativeGestures: true,
  });
  map.touchZoomRotate.disableRotation();
  map.keyboard.disableRotation();
  map.addControl(new NavigationControl({ showCompass: false }), "top-right");
  map.getCanvas().setAttribute("aria-label", "Map of the property. Use the arrow keys to pan and + or - to zoom.");
  await map.once("load");

  const attribution = createAttribution(map);
  const stopContext = loadContextOnMove(map, api, (context) => attribution.update({ context }));
  let pin: Marker | undefined;
  let numbers: Marker[] = [];

  return {
    map,
    showParcel(boundary, parcelAttribution) {
      setSourceData(map, SOURCES.subjectParcel, boundary ? [feature(boundary, {})] : []);
      if (parcelAttribution !== undefined) attribution.update({ parcel: parcelAttribution });
      if (boundary) markParcelDrawnWhenIdle(map);
    },
    showBuildings(buildings) {
      setSourceData(
        map,
        SOURCES.subjectBuildings,
        buildings.map((building) =>
          feature(building.footprint, {
            building_id: building.building_id,
            primary: building.primary,
            selected: building.selected,
          }),
        ),
      );
      for (const marker of numbers) marker.remove();
      numbers = buildings.flatMap(({ label }) =>
        label
          ? [new Marker({ element: numberBadge(label.number) }).setLngLat([label.at.lon, label.at.lat]).addTo(map)]
          : [],
      );
    },
    showPin(location) {
      if (location === null) {
        pin?.remove();
        pin = undefined;
        return;
      }
      pin ??= new Marker({ color: COLOURS.pin }).setLngLat([location.lon, location.lat]).addTo(map);
      pin.setLngLat([location.lon, location.lat]);
    },
    fitTo(area, location) {
      const box = area ? areaBbox(area) : undefined;
      if (box) {
        map.fitBounds(box as [number, number, number, number], { padding: FIT_PADDING, maxZoom: 19, duration: 0 });
      } else if (location) {
        map.jumpTo({ center: [location.lon, location.lat], zoom: 18 });
      }
    },
    onMapClick(handler) {
      const listener = (event: MapMouseEvent) => handler({ lat: event.lngLat.lat, lon: event.lngLat.lng });
      return unsubscriber(map.on("click", listener));
    },
    onBuildingClick(handler) {
      const canvas = map.getCanvas();
      const subscriptions = [
        map.on("click", LAYERS.subjectBuildingsFill, (event) => {
          const id = event.features?.[0]?.properties?.building_id;
          if (typeof id === "number") handler(id);
        }),
        map.on("mouseenter", LAYERS.subjectBuildingsFill, () => canvas.classList.add("map__canvas--pointer")),
        map.on("mouseleave", LAYERS.subjectBuildingsFill, () => canvas.classList.remove("map__canvas--pointer")),
      ];
      return () => {
        canvas.classList.remove("map__canvas--pointer");
        for (const subscription of subscriptions) subscription.unsubscribe();
      };
    },
    remove() {
      stopContext();
      map.remove();
    },
  };
}

/** A building's number drawn as HTML over the map (the style has no glyphs to draw text with); clicks pass through. */
function numberBadge(value: number): HTMLElement {
  const badge = document.createElement("span");
  badge.className = "map__building-number";
  badge.textContent = String(value);
  badge.setAttribute("aria-hidden", "true");
  return badge;
}

function feature(geometry: GeoJsonArea, properties: Record<string, unknown>): Feature {
  return { type: "Feature", geometry: geometry as Geometry, properties };
}

function setSourceData(map: MapLibreMap, sourceId: string, features: Feature[]): void {
  const data: FeatureCollection = { type: "FeatureCollection", features };
  map.getSource<GeoJSONSource>(sourceId)?.setData(data);
}

function unsubscriber(subscription: { unsubscribe(): void }): () => void {
  return () => subscription.unsubscribe();
}

/**
 * The attribution control, rebuilt when the data on the map comes from a different set of datasets (MapLibre
 * fixes a control's custom attribution when the control is made).
 */
function createAttribution(map: MapLibreMap) {
  const current: { parcel: Attribution | null; context: readonly Attribution[] } = { parcel: null, context: [] };
  let control: AttributionControl | undefined;
  let shown = "";
  const render = () => {
    const lines = attributionLines(current);
    const key = lines.join("\n");
    if (control && key === shown) return;
    if (control) map.removeControl(control);
    control = new AttributionControl({ customAttribution: lines });
    map.addControl(control, "bottom-right");
    shown = key;
  };
  render();
  return {
    update(change: { parcel?: Attribution | null; context?: readonly Attribution[] }) {
      Object.assign(current, change);
      render();
    },
  };
}
