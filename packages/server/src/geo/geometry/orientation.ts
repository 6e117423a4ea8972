import type { Pair } from "./read-polygons.js";

/** Shewchuk's bound on the rounding of the floating-point determinant below (his `ccwerrboundA`). */
const FLOAT_ERROR_BOUND = (3 + 16 * 2 ** -53) * 2 ** -53;

/**
 * Which way `c` lies from the line through `a` and `b`: 1 to its left (`a`, `b`, `c` counter-clockwise), -1 to
 * its right, 0 on it. Exact: the floating-point determinant answers when its sign is beyond its rounding error
 * (almost always), exact integer arithmetic otherwise, so that validity never hangs on rounding.
 */
export function orientation(a: Pair, b: Pair, c: Pair): -1 | 0 | 1 {
  const left = (a[0] - c[0]) * (b[1] - c[1]);
  const right = (a[1] - c[1]) * (b[0] - c[0]);
  const determinant = left - right;
  const bound = FLOAT_ERROR_BOUND * (Math.abs(left) + Math.abs(right));
  if (determinant > bound) return 1;
  if (-determinant > bound) return -1;
  // Each product exactly zero, a factor of it being the difference of two equal numbers: so is the determinant.
  // The common case of all (a position shared by two segments, a lot line along a meridian), answered at once.
  if ((a[0] === c[0] || b[1] === c[1]) && (a[1] === c[1] || b[0] === c[0])) return 0;
  return exactOrientation(a, b, c);
}

function exactOrientation(a: Pair, b: Pair, c: Pair): -1 | 0 | 1 {
  const [ax, ay, bx, by, cx, cy] = [a[0], a[1], b[0], b[1], c[0], c[1]].map(scaledExactly) as bigint[] as [
    bigint,
    bigint,
    bigint,
    bigint,
    bigint,
    bigint,
  ];
  const determinant = (ax - cx) * (by - cy) - (ay - cy) * (bx - cx);
  return determinant > 0n ? 1 : determinant < 0n ? -1 : 0;
}

const bits = new DataView(new ArrayBuffer(8));

/** A finite double times 2^1074, which is always a whole number, as a bigint: its value with no rounding. */
function scaledExactly(value: number): bigint {
  bits.setFloat64(0, value);
  const high = bits.getUint32(0);
  const exponent = (high >>> 20) & 0x7ff;
  let mantissa = (BigInt(high & 0xfffff) << 32n) | BigInt(bits.getUint32(4));
  // A normal number is 1.mantissa × 2^(exponent − 1075); a subnormal one is mantissa × 2^−1074.
  if (exponent !== 0) mantissa = (mantissa | (1n << 52n)) << BigInt(exponent - 1);
  return high >>> 31 === 1 ? -mantissa : mantissa;
}
