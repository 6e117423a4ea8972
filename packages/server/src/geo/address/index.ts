/**
 * US street addresses, pure (no database, no I/O): normalization to USPS Publication 28 form, the canonical
 * one-line form, street and address keys for indexing and de-duplication, candidate scoring, and reading
 * half-typed search text.
 */
export { addressKey } from "./address-key.js";
export type { AddressQuery } from "./address-query.js";
export { ADDRESS_SCORES } from "./address-scores.js";
export { formatAddress } from "./format-address.js";
export { type AddressDefaults, normalizeAddress } from "./normalize-address.js";
export type { NormalizedAddress } from "./normalized-address.js";
export { parseQuery } from "./parse-query.js";
export { readFormattedAddress } from "./read-formatted-address.js";
export { scoreCandidate } from "./score-candidate.js";
export { streetKey } from "./street-key.js";
