import type { NormalizedAddress } from "./normalized-address.js";

/**
 * The identity of a street: `PREDIR NAME SUFFIX POSTDIR`, space-separated, absent parts left out (`N MAIN ST`,
 * `ELM ST N`, `BROADWAY`). Addresses are indexed by it; because the predir comes first, a store can find a street
 * by prefix (see `parseQuery`).
 *
 * @example streetKey(normalizeAddress("1 North Main Street Apt 4")!) // "N MAIN ST"
 */
export function streetKey(address: Pick<NormalizedAddress, "predir" | "street" | "suffix" | "postdir">): string {
  // Concatenated rather than filtered and joined: an import computes this for every row it reads.
  return withWord(withWord(withWord(withWord("", address.predir), address.street), address.suffix), address.postdir);
}

function withWord(text: string, word: string | undefined): string {
  if (!word) return text;
  return text === "" ? word : `${text} ${word}`;
}
