import type { NormalizedAddress } from "./normalized-address.js";
import { streetKey } from "./street-key.js";

/**
 * The canonical one-line form of an address: number, street, unit, then (unless `withPlace` is false)
 * `, CITY, ST 12345-6789`. A unit without a designator is written after `#`. `normalizeAddress` reads this form
 * back to the same address.
 *
 * @example formatAddress({ number: "120", street: "GORE", suffix: "ST", city: "CAMBRIDGE", state: "MA", postcode: "02141" }) // "120 GORE ST, CAMBRIDGE, MA 02141"
 * @example formatAddress({ number: "30-32", street: "SCIARAPPA", suffix: "ST", unitType: "UNIT", unit: "2" }) // "30-32 SCIARAPPA ST UNIT 2"
 */
export function formatAddress(address: NormalizedAddress, { withPlace = true }: { withPlace?: boolean } = {}): string {
  const unitType = address.unitType ?? (address.unit ? "#" : undefined);
  const line = [address.number, streetKey(address), unitType, address.unit].filter(Boolean).join(" ");
  if (!withPlace) return line;
  const zip = address.postcode && address.plus4 ? `${address.postcode}-${address.plus4}` : address.postcode;
  const region = [address.state, zip].filter(Boolean).join(" ");
  return [line, address.city, region].filter(Boolean).join(", ");
}
