import { formatNumber } from "./format-number";

/**
 * An area in square metres and square feet, rounded to whole units.
 *
 * @example formatArea(182.2, 1961.2) // "182 m² (1,961 ft²)"
 */
export function formatArea(squareMetres: number, squareFeet: number): string {
  return `${formatNumber(squareMetres, 0)} m² (${formatNumber(squareFeet, 0)} ft²)`;
}
