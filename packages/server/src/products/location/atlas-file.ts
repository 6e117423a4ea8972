import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { Topology } from "topojson-specification";

const require = createRequire(import.meta.url);

/** A TopoJSON file shipped in an installed package (us-atlas, world-atlas), read and parsed. */
export async function readAtlas(file: string): Promise<Topology> {
  return JSON.parse(await readFile(require.resolve(file), "utf8")) as Topology;
}

/**
 * `load` run once, on first use, its promise shared by every caller after; a failed load is forgotten so the next
 * caller tries again.
 */
export function lazily<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}
