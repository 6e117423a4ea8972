import { decodeWkb } from "../store/wkb.js";
import type { Geometry } from "../types.js";

/** The bytes of a GeoPackage geometry's envelope by its indicator (flags bits 1–3): none, xy, xyz, xym, xyzm. */
const ENVELOPE_BYTES = [0, 32, 48, 48, 64];

const MAGIC = 0x4750; // "GP"
const FIXED_HEADER = 8; // magic, version, flags, srs_id

/**
 * A GeoPackage geometry (the GeoPackage binary header, then WKB) as GeoJSON, or null for an empty geometry.
 * Throws, saying why, for bytes that are not one: the caller makes that the record's error.
 */
export function decodeGeoPackageGeometry(bytes: Uint8Array): Geometry | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < FIXED_HEADER || view.getUint16(0) !== MAGIC) {
    throw new Error("the geometry is not GeoPackage binary (no GP header)");
  }
  const flags = view.getUint8(3);
  if (flags & 0b10_0000) throw new Error("the geometry is of an extended GeoPackage type, which is not read here");
  const envelope = ENVELOPE_BYTES[(flags >> 1) & 0b111];
  if (envelope === undefined) throw new Error(`the geometry's header has an invalid envelope code ${(flags >> 1) & 7}`);
  if (flags & 0b1_0000) return null;
  return decodeWkb(bytes.subarray(FIXED_HEADER + envelope));
}
