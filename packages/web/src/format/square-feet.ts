/** Square feet in a square metre (the international foot, 0.3048 m). */
const SQUARE_FEET_PER_SQUARE_METRE = 1 / 0.3048 ** 2;

/** An area in square metres as square feet. */
export function squareFeet(squareMetres: number): number {
  return squareMetres * SQUARE_FEET_PER_SQUARE_METRE;
}
