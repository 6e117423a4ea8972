/** Square feet in one square metre: the international foot is exactly 0.3048 m. */
export const SQUARE_FEET_PER_SQUARE_METRE = 1 / (0.3048 * 0.3048);

/**
 * Square metres as square feet (international foot).
 *
 * @example
 * toSquareFeet(100); //= 1076.391…
 */
export function toSquareFeet(squareMetres: number): number {
  return squareMetres * SQUARE_FEET_PER_SQUARE_METRE;
}
