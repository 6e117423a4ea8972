import type { Generated } from "kysely";

/**
 * The tables, as Kysely sees them. Times are epoch milliseconds (`bigint`, read back as numbers on both
 * databases) so comparisons and windows need no date functions that differ between SQLite and PostgreSQL.
 */
export interface Schema {
  instance_settings: InstanceSettingTable;
  organizations: OrganizationTable;
  api_clients: ApiClientTable;
  iframe_keys: IframeKeyTable;
  registrations: RegistrationTable;
  signing_keys: SigningKeyTable;
  token_issuances: TokenIssuanceTable;
  datasets: DatasetTable;
  imports: ImportTable;
  parcels: ParcelTable;
  buildings: BuildingTable;
  addresses: AddressTable;
  attribute_keys: AttributeKeysTable;
  layer_features: LayerFeatureTable;
  layer_parts: LayerPartTable;
  monitoring: MonitoringTable;
  events: EventTable;
  event_areas: EventAreaTable;
  event_impacts: EventImpactTable;
  product_matrices: ProductMatrixTable;
  properties: PropertyTable;
  property_versions: PropertyVersionTable;
  orders: OrderTable;
  idempotency_keys: IdempotencyKeyTable;
  jobs: JobTable;
  webhook_events: WebhookEventTable;
  webhook_attempts: WebhookAttemptTable;
  custom_fields: CustomFieldTable;
  order_batches: OrderBatchTable;
  order_batch_rows: OrderBatchRowTable;
}

/** Values created once per deployment, such as the key that secret digests are made with. */
export interface InstanceSettingTable {
  name: string;
  value: string;
}

export interface OrganizationTable {
  org_id: string;
  name: string;
  /** The Standard Webhooks `whsec_` secret; kept whole because every delivery is signed with it. */
  webhook_secret: string;
  created_at: number;
}

/** Where an organization's `event.impacted` and `property.changed` webhooks go (`PUT /v1/monitoring`). */
export interface MonitoringTable {
  org_id: string;
  callback_url: string;
  updated_at: number;
}

/** A catastrophe event the operator imported (`lotline import event`). */
export interface EventTable {
  event_id: string;
  name: string;
  peril: string;
  /** YYYY-MM-DD, when given. */
  date: string | null;
  /** The file's name. */
  source: string;
  /** The import's counts and rejections, as JSON. */
  summary: string;
  imported_at: number;
}

/** A part of an event's area (`geo/geometry/subdivide.ts`): a Polygon as stored geometry (`geo/store/geometry-codec.ts`), with the intensity of its feature. */
export interface EventAreaTable extends BBoxColumns {
  area_id: Generated<number>;
  event_id: string;
  geometry: Uint8Array;
  intensity: number | null;
}

/** A property that an event's area met, found when the event was imported. */
export interface EventImpactTable {
  event_id: string;
  org_id: string;
  property_id: number;
  parcel_share_inside: number | null;
  buildings_inside: number;
  buildings_total: number;
  intensity: number | null;
}

export interface ApiClientTable {
  client_id: string;
  org_id: string;
  secret_digest: string;
  created_at: number;
  revoked_at: number | null;
}

export interface IframeKeyTable {
  key_id: string;
  org_id: string;
  key_digest: string;
  created_at: number;
  revoked_at: number | null;
}

export type RegistrationKind = "host_origin" | "callback_prefix";

/** Values an organization registered beforehand: host page origins and callback URL prefixes. */
export interface RegistrationTable {
  org_id: string;
  kind: RegistrationKind;
  value: string;
  created_at: number;
}

export interface SigningKeyTable {
  kid: string;
  algorithm: string;
  public_jwk: string;
  private_pkcs8: string;
  created_at: number;
  /** When a newer key took over signing; the key stays published for a while after. */
  retired_at: number | null;
}

/** Tokens issued to a client in one hour or one day window, for the frequent-caller limits. */
export interface TokenIssuanceTable {
  client_id: string;
  period: "hour" | "day";
  window_start: number;
  count: number;
}

export type DatasetKind = "parcels" | "buildings" | "addresses" | "layer";

/** `main` for what an operator imports; `demo` for the generated neighbourhood of `lotline demo`. */
export type DatasetNamespace = "main" | "demo";

/** A named source of geodata with its provenance, shown beside every value derived from it. */
export interface DatasetTable {
  dataset_id: Generated<number>;
  kind: DatasetKind;
  name: string;
  provider: string | null;
  license: string | null;
  vintage: string | null;
  /** Layers only: `polygon` or `point`, fixed by the first import. */
  geometry_kind: "polygon" | "point" | null;
  namespace: Generated<DatasetNamespace>;
  /** The box of every row the dataset holds, as of its latest import; null while it holds none. */
  min_lon: number | null;
  min_lat: number | null;
  max_lon: number | null;
  max_lat: number | null;
  /** How many rows the dataset holds, as of its latest import. */
  record_count: Generated<number>;
  created_at: number;
  updated_at: number;
}

/** One run of `lotline import`; every geodata row points at the import that last wrote it. */
export interface ImportTable {
  import_id: Generated<number>;
  dataset_id: number;
  source: string;
  started_at: number;
  finished_at: number | null;
  /** The import's summary as JSON: counts and the rejected records with their reasons. */
  summary: string | null;
}

/** The four columns of a row's bounding box, which the spatial index covers. */
export interface BBoxColumns {
  min_lon: number;
  min_lat: number;
  max_lon: number;
  max_lat: number;
}

/**
 * The names of a record's attributes, once for every record with the same names (`geo/store/stored-attributes.ts`):
 * a row keeps only its values. Never deleted, so a row's names are always there (no foreign key to check on
 * every insert of a state's parcels).
 */
export interface AttributeKeysTable {
  keys_id: Generated<number>;
  /** SHA-256 of `keys`, unique: what a writer looks the names up by (a long list of names is too long to index). */
  digest: string;
  /** The names, a JSON array. */
  keys: string;
}

export interface ParcelTable extends BBoxColumns {
  parcel_id: Generated<number>;
  dataset_id: number;
  /** The publisher's parcel id (APN, map-lot). */
  source_id: string;
  /** Polygon or MultiPolygon, as WKB (`geo/store/wkb.ts`). */
  boundary: Uint8Array;
  attribute_keys_id: number;
  /** The source record's attribute values, a JSON array in the order of their names (`attribute_keys`). */
  attributes: string;
  area_m2: number;
  import_id: number;
  updated_at: number;
}

export interface BuildingTable extends BBoxColumns {
  building_id: Generated<number>;
  dataset_id: number;
  source_id: string;
  /** Polygon or MultiPolygon, as stored geometry (`geo/store/geometry-codec.ts`). */
  footprint: Uint8Array;
  attribute_keys_id: number;
  /** The attribute values, as a JSON array (see `ParcelTable`). */
  attributes: string;
  area_m2: number;
  /** The parcel holding the largest share of the footprint, if any. */
  parcel_id: number | null;
  parcel_share: number | null;
  import_id: number;
  updated_at: number;
}

export interface AddressTable {
  address_id: Generated<number>;
  dataset_id: number;
  /**
   * The normalized address in parts; its one-line form (`geo/store/address-line.ts`) is written from them, and
   * reads back to the whole normalized address.
   */
  number: string | null;
  number_low: number | null;
  number_high: number | null;
  /** The normalized street (directionals, name, suffix): what autocomplete searches by prefix. */
  street: string;
  unit_type: string | null;
  unit: string | null;
  city: string | null;
  state: string | null;
  postcode: string | null;
  /** The last four digits of a ZIP+4, when the source gave them. */
  plus4: string | null;
  parcel_id: number | null;
  lon: number;
  lat: number;
  import_id: number;
  updated_at: number;
}

export interface LayerFeatureTable extends BBoxColumns {
  feature_id: Generated<number>;
  dataset_id: number;
  source_id: string;
  /** Any geometry, as stored geometry (`geo/store/geometry-codec.ts`). */
  geometry: Uint8Array;
  attribute_keys_id: number;
  /** The attribute values, as a JSON array (see `ParcelTable`). */
  attributes: string;
  import_id: number;
  /** How many parts in `layer_parts` a large polygon is cut into; 0 when it is small enough to be read whole. */
  part_count: Generated<number>;
}

/** A part of a large polygonal layer feature (`geo/geometry/subdivide.ts`), under a spatial index of its own. */
export interface LayerPartTable extends BBoxColumns {
  part_id: Generated<number>;
  feature_id: number;
  /** A Polygon, as stored geometry (`geo/store/geometry-codec.ts`). */
  geometry: Uint8Array;
  /** The import that wrote the part: its feature's. */
  import_id: number;
}

/** A named choice of data products an organization orders; one per organization is its default. */
export interface ProductMatrixTable {
  product_matrix_id: string;
  org_id: string;
  name: string;
  /** JSON array of product names. */
  products: string;
  is_default: number;
  created_at: number;
}

/** An organization's property record: where it is, the policy fields, and the computed data (JSON). */
/** What made a version of a property's record: an order completing, or imported data changing under it. */
export type VersionCause = "order" | "data_change";

/** A version of a property's record that a later one replaced, kept whole. */
export interface PropertyVersionTable {
  property_id: number;
  version: number;
  created_at: number;
  cause: VersionCause;
  record: string;
}

export interface PropertyTable {
  property_id: Generated<number>;
  org_id: string;
  address: string | null;
  lat: number | null;
  lon: number | null;
  parcel_id: number | null;
  external_id: string | null;
  secondary_external_id: string | null;
  insured_name: string | null;
  renewal_date: string | null;
  premium_amount: number | null;
  custom_fields: Generated<string>;
  policy_buildings: Generated<string>;
  /** The products computed by the latest completed order (and computed again as data changed), as JSON. */
  record: string | null;
  /** The record's version: 0 before it has one; the earlier ones are in `property_versions`. */
  version: Generated<number>;
  /** When the current version was made, and what made it. */
  version_at: number | null;
  version_cause: VersionCause | null;
  /** The box of the lot the record was computed for (its parcel product's boundary, else its point). */
  lot_min_lon: number | null;
  lot_min_lat: number | null;
  lot_max_lon: number | null;
  lot_max_lat: number | null;
  /** 1 when the lot is a boundary the user drew, which then stands for the property instead of its parcel. */
  lot_drawn: Generated<number>;
  created_at: number;
  updated_at: number;
}

export type OrderStatus = "processing" | "complete" | "failed";

export interface OrderTable {
  order_id: string;
  org_id: string;
  property_id: number;
  product_matrix_id: string;
  status: OrderStatus;
  /** Why a failed order failed: a code from the documented list. */
  reason: string | null;
  /** The order's request body as JSON. */
  request: string;
  callback_url: string | null;
  created_at: number;
  completed_at: number | null;
  /** The batch the order came in, if any. */
  batch_id: string | null;
}

/** A bulk order: `intake` (invisible) until its intake committed, then `processing`, `complete` when settled. */
export interface OrderBatchTable {
  batch_id: string;
  org_id: string;
  name: string | null;
  callback_url: string | null;
  status: "intake" | "processing" | "complete";
  rows: Generated<number>;
  accepted: Generated<number>;
  rejected: Generated<number>;
  /** Accepted orders not yet settled. */
  pending: Generated<number>;
  failed: Generated<number>;
  /** Input rows whose orders have their jobs: the batch opens `rows` of them a run at a time after its intake. */
  opened_rows: Generated<number>;
  /** JSON array of the CSV columns that were ignored. */
  ignored_columns: Generated<string>;
  created_at: number;
  completed_at: number | null;
}

/** One input row of a batch: the order it became, or the reason (and field) it was rejected. */
export interface OrderBatchRowTable {
  batch_id: string;
  row_number: number;
  order_id: string | null;
  reason: string | null;
  field: string | null;
}

/** A replayable response per organization and `Idempotency-Key`; `status_code` null while the first is running. */
export interface IdempotencyKeyTable {
  org_id: string;
  key: string;
  request_hash: string;
  status_code: number | null;
  response: string | null;
  created_at: number;
  expires_at: number;
}

export type JobStatus = "pending" | "running" | "done" | "failed";

/** Durable background work (processing an order, delivering a webhook), claimed with a lease. */
export interface JobTable {
  job_id: Generated<number>;
  kind: string;
  payload: string;
  status: JobStatus;
  /** When the job may run next. */
  run_at: number;
  /** Lower runs first: 0 for work someone waits for, more for bulk work (see migration 0007). */
  priority: Generated<number>;
  /** Claims so far; a worker settles a job only with the attempt number it claimed (fencing). */
  attempts: Generated<number>;
  lease_until: number | null;
  last_error: string | null;
  created_at: number;
  finished_at: number | null;
}

export type WebhookEventStatus = "pending" | "delivered" | "failed";

/** One event for one callback URL; its `event_id` is the `webhook-id` every attempt carries. */
export interface WebhookEventTable {
  event_id: string;
  org_id: string;
  type: string;
  url: string;
  /** The exact JSON body sent, `{type, timestamp, data}`. */
  body: string;
  status: WebhookEventStatus;
  created_at: number;
  delivered_at: number | null;
}

export interface WebhookAttemptTable {
  attempt_id: Generated<number>;
  event_id: string;
  attempted_at: number;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  response_excerpt: string | null;
}

/** A policy field an organization defines for its orders; `position` orders a form's fields. */
export interface CustomFieldTable {
  org_id: string;
  key: string;
  label: string;
  type: "text" | "number" | "date" | "boolean";
  required: number;
  position: number;
  created_at: number;
}
