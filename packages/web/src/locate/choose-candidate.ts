import type { AddressCandidate } from "@lotline/contract";

/** A candidate this good, and better than the next, stands for the address without asking (as an order would). */
export const CLEAR_MATCH_SCORE = 0.9;
/** Candidates below this are not worth offering: a different street, or a different number far along it. */
export const PLAUSIBLE_SCORE = 0.5;

/** What an address search means for the page: one address, a choice for the user, or nothing. */
export type CandidateChoice =
  | { kind: "clear"; candidate: AddressCandidate }
  | { kind: "choose"; candidates: AddressCandidate[] }
  | { kind: "none" };

/**
 * Reads an address search (candidates best first): a clear best candidate (score ≥ 0.9 and ahead of the next) is
 * used as it is; several plausible ones (score ≥ 0.5) are offered to choose from; otherwise there is none.
 *
 * @example chooseCandidate([{ score: 1, … }, { score: 0.8, … }]) // { kind: "clear", candidate: { score: 1, … } }
 */
export function chooseCandidate(candidates: readonly AddressCandidate[]): CandidateChoice {
  const sorted = [...candidates].sort((a, b) => b.score - a.score);
  const [best, next] = sorted;
  if (best === undefined) return { kind: "none" };
  if (best.score >= CLEAR_MATCH_SCORE && (next === undefined || best.score > next.score)) {
    return { kind: "clear", candidate: best };
  }
  const plausible = sorted.filter((candidate) => candidate.score >= PLAUSIBLE_SCORE);
  return plausible.length > 0 ? { kind: "choose", candidates: plausible } : { kind: "none" };
}
