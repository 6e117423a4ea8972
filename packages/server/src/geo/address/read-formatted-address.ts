import { normalizeAddress } from "./normalize-address.js";
import type { NormalizedAddress } from "./normalized-address.js";

/**
 * The address that `formatAddress` wrote `text` from. The canonical one-line form is how an address is stored:
 * it reads back to exactly the address it was written from (a property test and every Cambridge assessor
 * address hold this), so nothing else of it needs keeping.
 *
 * @example readFormattedAddress("30-32 SCIARAPPA ST UNIT 2, CAMBRIDGE, MA") // { number: "30-32", …, unitType: "UNIT", unit: "2", city: "CAMBRIDGE", state: "MA" }
 */
export function readFormattedAddress(text: string): NormalizedAddress {
  const address = normalizeAddress(text);
  if (!address) throw new Error(`not a formatted address: ${text}`);
  return address;
}
