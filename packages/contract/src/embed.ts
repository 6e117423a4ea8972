import { type Static, Type } from "typebox";
import { CustomField } from "./custom-fields.js";
import { DatabaseId, NonBlankText } from "./input.js";
import { ProductMatrix } from "./orders.js";

/**
 * The page API: what the embeddable pages call under `/embed/api`, with the iframe JWT in
 * `Authorization: Bearer`. It is not the data API (which refuses iframe JWTs); it serves exactly what the pages
 * show. A `401` means the session ended and the page goes to `/login`.
 */

const LatLon = Type.Object({ lat: Type.Number(), lon: Type.Number() });

/** GeoJSON Polygon or MultiPolygon (RFC 7946, WGS 84). */
export const GeoJsonArea = Type.Object({
  type: Type.Union([Type.Literal("Polygon"), Type.Literal("MultiPolygon")]),
  coordinates: Type.Array(Type.Unknown()),
});
export type GeoJsonArea = Static<typeof GeoJsonArea>;

/** Where a dataset shown on a page came from. */
export const Attribution = Type.Object({
  dataset: Type.String(),
  provider: Type.Union([Type.String(), Type.Null()]),
  license: Type.Union([Type.String(), Type.Null()]),
});
export type Attribution = Static<typeof Attribution>;

/** Map settings of the deployment: an optional raster imagery source under the service's own vector data. */
export const MapSettings = Type.Object({
  imagery_url: Type.Union([Type.String(), Type.Null()], {
    description: "An XYZ tile URL template ({z}/{x}/{y}); null draws a plain background.",
  }),
  imagery_attribution: Type.Union([Type.String(), Type.Null()]),
});
export type MapSettings = Static<typeof MapSettings>;

/**
 * `GET /embed/api/session`, and inlined into each page as JSON so the page needs no round trip to start.
 * `expires_in` is counted by the server when it answered, so a page can time its session without trusting the
 * browser's clock.
 */
export const PageSession = Type.Object({
  org_id: Type.String(),
  org_name: Type.String(),
  expires_at: Type.String({ format: "date-time" }),
  expires_in: Type.Integer({ description: "Seconds the iframe JWT has left." }),
  host_origins: Type.Array(Type.String(), { description: "The registered origins that may frame the pages." }),
  product_matrices: Type.Array(ProductMatrix),
  custom_fields: Type.Array(CustomField),
  map: MapSettings,
});
export type PageSession = Static<typeof PageSession>;

/**
 * The server's verdict on the `callback_url` a page was opened with, inlined beside the session when there is one:
 * whether it starts with one of the organization's registered callback prefixes (DESIGN.md §8). The page reports a
 * bad one at once instead of after the user's work is refused.
 */
export const CallbackCheck = Type.Object({
  callback_url: Type.Union([Type.Literal("registered"), Type.Literal("not_registered")]),
});
export type CallbackCheck = Static<typeof CallbackCheck>;

/** The id of the element holding the {@link CallbackCheck}, beside the session's. */
export const CALLBACK_CHECK_ELEMENT_ID = "lotline-callback-check";

/** What `/login` is told: why the session ended and, when known, where to post `service-error`. */
export const LoginContext = Type.Object({
  reason: Type.Union([Type.Literal("missing"), Type.Literal("invalid"), Type.Literal("expired")]),
  host_origins: Type.Array(Type.String()),
});
export type LoginContext = Static<typeof LoginContext>;

export const BUILDING_ROLES = ["primary_dwelling", "other_structure"] as const;
export const BuildingRole = Type.Union([Type.Literal("primary_dwelling"), Type.Literal("other_structure")]);
export type BuildingRole = (typeof BUILDING_ROLES)[number];

/** A parcel as a page draws it. */
export const ParcelView = Type.Object({
  parcel_id: Type.Integer(),
  source_id: Type.String({ description: "The publisher's parcel id (APN, map-lot)." }),
  boundary: GeoJsonArea,
  area_m2: Type.Number(),
  attribution: Attribution,
});
export type ParcelView = Static<typeof ParcelView>;

/** A building footprint as a page lists and draws it; `number` is its place by area on its parcel, from 1. */
export const BuildingView = Type.Object({
  building_id: Type.Integer(),
  number: Type.Integer({ minimum: 1 }),
  footprint: GeoJsonArea,
  area_m2: Type.Number(),
  area_ft2: Type.Number(),
  centroid: LatLon,
  role: BuildingRole,
});
export type BuildingView = Static<typeof BuildingView>;

/**
 * `GET /embed/api/lots?lat=&lon=`: what is at a point: the nearest address, the parcel holding the point and its
 * buildings (largest first; the largest is the suggested primary dwelling).
 */
export const Lot = Type.Object({
  location: LatLon,
  address: Type.Union([Type.String(), Type.Null()]),
  parcel: Type.Union([ParcelView, Type.Null()]),
  buildings: Type.Array(BuildingView),
});
export type Lot = Static<typeof Lot>;

/**
 * `GET /embed/api/map/context?bbox=west,south,east,north`: the service's own data around the property, drawn as
 * the map's base: neighbouring parcels and buildings, and the imported hazard layers.
 */
export const MapContext = Type.Object({
  parcels: Type.Unknown({ description: "GeoJSON FeatureCollection; properties: parcel_id, source_id." }),
  buildings: Type.Unknown({ description: "GeoJSON FeatureCollection; properties: building_id, parcel_id." }),
  layers: Type.Unknown({ description: "GeoJSON FeatureCollection of layer polygons; properties: layer, name." }),
  attribution: Type.Array(Attribution),
  truncated: Type.Boolean({ description: "Whether the area held more features than one answer carries." }),
});
export type MapContext = Static<typeof MapContext>;

/** `POST /embed/api/boundaries/check`: a redrawn parcel boundary checked exactly as an order would check it. */
export const BoundaryCheck = Type.Object({
  valid: Type.Boolean(),
  reason: Type.Optional(Type.String({ description: "boundary_invalid, boundary_self_intersecting, …" })),
  message: Type.Optional(Type.String({ description: "What is wrong, for the user." })),
  area_m2: Type.Optional(Type.Number()),
});
export type BoundaryCheck = Static<typeof BoundaryCheck>;

/** A building insured by the policy, as stored on the property and sent in `footprint.submitted`. */
export const PolicyBuilding = Type.Object({
  building_id: Type.Integer(),
  role: Type.Union([BuildingRole, Type.Null()]),
  footprint: GeoJsonArea,
  area_m2: Type.Number(),
  centroid: LatLon,
});
export type PolicyBuilding = Static<typeof PolicyBuilding>;

/** `POST /embed/api/footprints`: the insured buildings the user selected on one parcel. */
export const FootprintSubmission = Type.Object(
  {
    address: NonBlankText(300),
    external_id: Type.Optional(NonBlankText(200)),
    callback_url: Type.Optional(Type.String({ format: "uri", maxLength: 2000 })),
    parcel_id: DatabaseId(),
    buildings: Type.Array(
      Type.Object({ building_id: DatabaseId(), role: Type.Optional(BuildingRole) }, { additionalProperties: false }),
      { minItems: 1, maxItems: 200 },
    ),
  },
  { additionalProperties: false },
);
export type FootprintSubmission = Static<typeof FootprintSubmission>;

/**
 * `202` answer to a footprint submission. `webhook_id` names the `footprint.submitted` delivery to
 * `callback_url` (follow it at `GET /embed/api/webhook-deliveries/{webhook_id}`); null when no callback_url was given.
 */
export const FootprintAccepted = Type.Object({
  property_id: Type.Integer(),
  address: Type.String(),
  webhook_id: Type.Union([Type.String(), Type.Null()]),
  buildings: Type.Array(PolicyBuilding),
});
export type FootprintAccepted = Static<typeof FootprintAccepted>;

/** The `data` of a `footprint.submitted` webhook. */
export const FootprintSubmittedData = Type.Object({
  property_id: Type.Integer(),
  external_id: Type.Union([Type.String(), Type.Null()]),
  address: Type.String(),
  parcel_source_id: Type.String(),
  buildings: Type.Array(PolicyBuilding),
});
export type FootprintSubmittedData = Static<typeof FootprintSubmittedData>;
