import type { PropertyChange } from "@lotline/contract";
import type { StoredRecord } from "../orders/property-records.js";

/** Keys that say when something was computed or imported, not what it is: a change of them alone is no change. */
const NOT_FIGURES = new Set(["computed_at", "imported_at"]);

/** The keys that name an element of a list in a path, tried in this order. */
const LIST_KEYS = ["building_id", "dataset", "source_id"] as const;

/**
 * The figures of a record that changed from `before` to `after`, each with its path from the record's top as the
 * property record presents it: `parcel`, `buildings`, `third_party`, and the other products under `data`.
 * Objects are compared key by key and lists of identified elements element by element (a building by
 * `building_id`, a layer by `dataset`, a feature by `source_id`); a geometry, or a list without such keys,
 * changes as a whole. When a record was computed or imported is no figure: a record computed again from the same
 * data has no changes.
 *
 * @example
 * diffRecords(before, after);
 * //= [{ path: "buildings[building_id=17].area_m2", before: 212.4, after: 230.1 }]
 */
export function diffRecords(before: StoredRecord | null, after: StoredRecord): PropertyChange[] {
  const changes: PropertyChange[] = [];
  compare("", figuresOf(before), figuresOf(after), changes);
  return changes;
}

/** The record as its figures are presented: each product once. */
function figuresOf(record: StoredRecord | null): Record<string, unknown> {
  const { parcel = null, structures, third_party = null, ...others } = record?.products ?? {};
  const { structures: buildings = [], ...structuresRest } = (structures ?? {}) as Record<string, unknown>;
  return {
    parcel,
    buildings,
    third_party,
    data: structures === undefined ? others : { ...others, structures: structuresRest },
  };
}

function compare(path: string, before: unknown, after: unknown, changes: PropertyChange[]): void {
  if (same(before, after)) return;
  if (isPlainObject(before) && isPlainObject(after) && !isGeometry(before) && !isGeometry(after)) {
    for (const key of unionOfKeys(before, after)) {
      if (NOT_FIGURES.has(key)) continue;
      compare(path === "" ? key : `${path}.${key}`, before[key] ?? null, after[key] ?? null, changes);
    }
    return;
  }
  const key = Array.isArray(before) && Array.isArray(after) ? listKeyOf(before, after) : undefined;
  if (key === undefined) {
    changes.push({ path, before: before ?? null, after: after ?? null });
    return;
  }
  const earlier = byKey(before as Array<Record<string, unknown>>, key);
  const later = byKey(after as Array<Record<string, unknown>>, key);
  for (const id of new Set([...earlier.keys(), ...later.keys()])) {
    compare(`${path}[${key}=${id}]`, earlier.get(id) ?? null, later.get(id) ?? null, changes);
  }
}

/** Deep equality of JSON values, blind to {@link NOT_FIGURES}. */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, index) => same(item, b[index]));
  }
  if (!isPlainObject(a) || !isPlainObject(b)) return false;
  for (const key of unionOfKeys(a, b)) {
    if (!NOT_FIGURES.has(key) && !same(a[key] ?? null, b[key] ?? null)) return false;
  }
  return true;
}

/** The first of {@link LIST_KEYS} that every element of both lists has, with a value unique in its list. */
function listKeyOf(before: unknown[], after: unknown[]): string | undefined {
  if (before.length + after.length === 0) return undefined;
  return LIST_KEYS.find((key) => identifiedBy(before, key) && identifiedBy(after, key));
}

function identifiedBy(list: unknown[], key: string): boolean {
  const ids = new Set<unknown>();
  for (const item of list) {
    const id = isPlainObject(item) ? item[key] : undefined;
    if ((typeof id !== "string" && typeof id !== "number") || ids.has(id)) return false;
    ids.add(id);
  }
  return true;
}

function byKey(list: Array<Record<string, unknown>>, key: string): Map<string, Record<string, unknown>> {
  return new Map(list.map((item) => [String(item[key]), item]));
}

function unionOfKeys(a: Record<string, unknown>, b: Record<string, unknown>): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A GeoJSON geometry: reported whole when it changes, never coordinate by coordinate. */
function isGeometry(value: Record<string, unknown>): boolean {
  return typeof value.type === "string" && Array.isArray(value.coordinates);
}
