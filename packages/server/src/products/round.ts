/** `value` rounded to `decimals` places: what goes on the wire (centimetres and square centimetres are plenty). */
export function round(value: number, decimals = 2): number {
  const scale = 10 ** decimals;
  return Math.round(value * scale) / scale;
}
