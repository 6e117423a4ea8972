import type { Measured } from "./area-batch.js";
import type { Owner } from "./assign-buildings.js";
import type { RecordOutcome } from "./import-summary.js";

/**
 * What an import thread gives back of a batch of parcels or buildings: each area's geometry as validated, in its
 * stored bytes (arrays copied between threads arrive as boxed numbers, slower to read), its box and area, and for
 * buildings its parcel; for a batch of texts, each area's attributes too (otherwise they stay on the main thread).
 */
export interface PreparedOnThread {
  areas: AreaFromThread[];
  outcomes: Array<[position: number, outcome: RecordOutcome]>;
}

export interface AreaFromThread extends Measured {
  sourceId: string;
  /** The positions in the batch of the records folded into it. */
  positions: number[];
  /** A building's parcel (null: none); absent for parcels. */
  owner?: NonNullable<Owner> | null;
  attributes?: Record<string, unknown>;
}

/**
 * A {@link PreparedOnThread} by column, as it crosses back to the main thread: its numbers and stored bytes in a
 * few typed arrays handed over rather than copied. The structured clone of an object an area — its own bytes,
 * box and owner each a clone too — cost some 1.3 µs an area to write on the thread and 1.8 µs to read on the main
 * thread, which reads the file and writes the rows: 3 s of a million buildings, against a twentieth of that.
 */
export interface PackedAreas {
  sourceIds: string[];
  /** Every area's positions, one area after another; an area's end where `positionEnds` says. */
  positions: Int32Array;
  positionEnds: Int32Array;
  /** Every area's stored bytes, one after another; an area's end where `byteEnds` says. */
  bytes: Uint8Array;
  byteEnds: Int32Array;
  /** West, south, east and north of each area's box, one area after another. */
  boxes: Float64Array;
  areasM2: Float64Array;
  /** For buildings, each one's parcel row id (NaN: none) and the share of it that parcel holds. */
  owners?: Float64Array;
  attributes?: Array<Record<string, unknown> | undefined>;
  outcomes: PreparedOnThread["outcomes"];
}

/** `prepared` by column, and the buffers to hand over with it. */
export function packAreas({ areas, outcomes }: PreparedOnThread): { packed: PackedAreas; transfer: ArrayBuffer[] } {
  const count = areas.length;
  const positionEnds = new Int32Array(count);
  const byteEnds = new Int32Array(count);
  let positionCount = 0;
  let byteCount = 0;
  for (const [i, area] of areas.entries()) {
    positionCount += area.positions.length;
    byteCount += area.bytes.length;
    positionEnds[i] = positionCount;
    byteEnds[i] = byteCount;
  }
  const positions = new Int32Array(positionCount);
  const bytes = new Uint8Array(byteCount);
  const boxes = new Float64Array(4 * count);
  const areasM2 = new Float64Array(count);
  const owned = areas.some((area) => area.owner !== undefined);
  const owners = owned ? new Float64Array(2 * count) : undefined;
  const texts = areas.some((area) => area.attributes !== undefined);
  for (const [i, area] of areas.entries()) {
    const start = i === 0 ? 0 : (positionEnds[i - 1] as number);
    positions.set(area.positions, start);
    bytes.set(area.bytes, (byteEnds[i] as number) - area.bytes.length);
    boxes.set(area.box, 4 * i);
    areasM2[i] = area.areaM2;
    if (owners) {
      owners[2 * i] = area.owner ? area.owner.parcelId : Number.NaN;
      owners[2 * i + 1] = area.owner ? area.owner.share : Number.NaN;
    }
  }
  const packed: PackedAreas = {
    sourceIds: areas.map((area) => area.sourceId),
    positions,
    positionEnds,
    bytes,
    byteEnds,
    boxes,
    areasM2,
    ...(owners ? { owners } : {}),
    ...(texts ? { attributes: areas.map((area) => area.attributes) } : {}),
    outcomes,
  };
  const buffers = [positions, positionEnds, bytes, byteEnds, boxes, areasM2, ...(owners ? [owners] : [])];
  return { packed, transfer: buffers.map((array) => array.buffer as ArrayBuffer) };
}

/** The areas again, on the main thread; each one's bytes a view of the one block they came in. */
export function unpackAreas(packed: PackedAreas): PreparedOnThread {
  const { positions, positionEnds, bytes, byteEnds, boxes, areasM2, owners, attributes } = packed;
  const areas = packed.sourceIds.map((sourceId, i): AreaFromThread => {
    const area: AreaFromThread = {
      sourceId,
      positions: Array.from(positions.subarray(i === 0 ? 0 : positionEnds[i - 1], positionEnds[i])),
      bytes: bytes.subarray(i === 0 ? 0 : byteEnds[i - 1], byteEnds[i]),
      box: [boxes[4 * i] as number, boxes[4 * i + 1] as number, boxes[4 * i + 2] as number, boxes[4 * i + 3] as number],
      areaM2: areasM2[i] as number,
    };
    if (owners) {
      const parcelId = owners[2 * i] as number;
      area.owner = Number.isNaN(parcelId) ? null : { parcelId, share: owners[2 * i + 1] as number };
    }
    const own = attributes?.[i];
    if (own !== undefined) area.attributes = own;
    return area;
  });
  return { areas, outcomes: packed.outcomes };
}
