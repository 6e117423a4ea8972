import { createHash } from "node:crypto";
import type { AttributeColumns } from "../store/stored-attributes.js";
import { storedAreas } from "./area-batch.js";
import type { ImportContext } from "./run-import.js";

/** A stored row as an import compares it: its geometry's bytes and its attributes. */
export type ComparedRow = AttributeColumns & { bytes: Uint8Array };

/** Rows remembered at most: some 100 bytes each. Past them a row stays counted as updated. */
const MOST_REMEMBERED = 50_000;

/** Ids looked up at once at the end. */
const IDS_PER_READ = 1000;

/**
 * The stored rows an import updated with a piece of a lot or footprint whose other pieces came in later batches. The
 * first piece replaces the stored whole and the later ones merge into it, so that the same file imported again
 * counted such a row as updated, though it ends as it was: 103 of the 260,520 parcels of the 20-tile scale data.
 * A row is remembered (as a digest of what it held) when a piece smaller than it updates it, and compared at the
 * import's end if a later piece merged into it.
 */
export class UpdatedPieces {
  readonly #before = new Map<string, string>();
  readonly #merged = new Set<string>();

  /** `stored` was updated with a piece of `pieceM2` square metres, the row holding `storedM2`. */
  updated(sourceId: string, stored: ComparedRow, pieceM2: number, storedM2: number): void {
    if (pieceM2 < storedM2 && this.#before.size < MOST_REMEMBERED) this.#before.set(sourceId, digestOf(stored));
  }

  /** A later piece merged into the row of `sourceId`. */
  merged(sourceId: string): void {
    if (this.#before.has(sourceId)) this.#merged.add(sourceId);
  }

  /** How many of the rows counted as updated end as they were before the import: to be counted unchanged. */
  async unchangedAfterAll(context: ImportContext, table: "parcels" | "buildings"): Promise<number> {
    const ids = [...this.#merged];
    let unchanged = 0;
    for (let start = 0; start < ids.length; start += IDS_PER_READ) {
      for (const [id, row] of await storedAreas(context, table, ids.slice(start, start + IDS_PER_READ))) {
        if (this.#before.get(id) === digestOf(row)) unchanged++;
      }
    }
    return unchanged;
  }
}

function digestOf({ bytes, attribute_keys_id, attributes }: ComparedRow): string {
  return createHash("sha1").update(bytes).update(`\0${attribute_keys_id}\0${attributes}`).digest("base64");
}
