import type { NormalizedAddress } from "./normalized-address.js";
import { streetKey } from "./street-key.js";

/**
 * The identity of an address, for idempotent imports and de-duplication: street key, house number, unit, city and
 * state joined by `|`. The unit designator is left out (`APT 4`, `UNIT 4` and `# 4` are one unit; a designator
 * without a value, like `REAR`, stands for the unit), and so are the ZIP code and ZIP+4 (a city's ZIP can be
 * written or not, right or wrong, for the same address).
 *
 * @example addressKey(normalizeAddress("5 Main St #3", { city: "Cambridge", state: "MA" })!) // "MAIN ST|5|3|CAMBRIDGE|MA"
 */
export function addressKey(address: NormalizedAddress): string {
  const unit = address.unit ?? address.unitType ?? "";
  return `${streetKey(address)}|${address.number ?? ""}|${unit}|${address.city ?? ""}|${address.state ?? ""}`;
}
