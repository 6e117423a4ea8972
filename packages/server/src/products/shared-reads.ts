import type { GeoSource } from "../geo/store/spatial-filter.js";

/**
 * A source whose reads are shared by everything computed through it: the products of one order run side by side,
 * and several of them ask for the dataset catalog and for the lot's buildings; each is read once. Make one per
 * unit of work, so that what it keeps never outlives an import.
 */
export interface SharedReadsSource extends GeoSource {
  readonly sharedReads: Map<string, Promise<unknown>>;
}

export function withSharedReads(source: GeoSource): SharedReadsSource {
  return { ...source, sharedReads: new Map() };
}

/** Whether reads through `source` are shared (it was made by {@link withSharedReads}). */
export function sharesReads(source: GeoSource): source is SharedReadsSource {
  return "sharedReads" in source;
}

/**
 * `read()` once per key through a source made by {@link withSharedReads}, its promise shared by every caller (a
 * failure too); on any other source, `read()` each time. Callers must not change what it answers.
 */
export function readOnce<T>(source: GeoSource, key: string, read: () => Promise<T>): Promise<T> {
  if (!sharesReads(source)) return read();
  const reads = source.sharedReads;
  let pending = reads.get(key) as Promise<T> | undefined;
  if (!pending) {
    pending = read();
    reads.set(key, pending);
  }
  return pending;
}
