/** At most this many features, and whether the area held more. */
export interface Capped<T> {
  items: T[];
  truncated: boolean;
}

/** Candidates read per query: enough to fill most answers at once, few enough to parse cheaply. */
const BATCH = 500;

/**
 * Reads candidates in id order a batch at a time, keeps those passing the exact test `keep`, and stops once
 * `limit` are kept and one more is found (then `truncated`) or the candidates run out. The index prefilter only
 * narrows by bounding box, so a SQL `LIMIT` alone could not tell how many features really meet an area.
 */
export async function collectMatches<T>(
  fetchAfter: (afterId: number, batch: number) => Promise<T[]>,
  idOf: (item: T) => number,
  keep: (item: T) => boolean,
  limit: number,
): Promise<Capped<T>> {
  const items: T[] = [];
  let afterId = 0;
  for (;;) {
    const batch = await fetchAfter(afterId, BATCH);
    for (const item of batch) {
      if (!keep(item)) continue;
      if (items.length === limit) return { items, truncated: true };
      items.push(item);
    }
    const last = batch.at(-1);
    if (batch.length < BATCH || last === undefined) return { items, truncated: false };
    afterId = idOf(last);
  }
}
