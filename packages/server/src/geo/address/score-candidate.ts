import { ADDRESS_SCORES as S } from "./address-scores.js";
import { numberRange } from "./house-number.js";
import type { NormalizedAddress } from "./normalized-address.js";
import { similarity } from "./similarity.js";

/**
 * How well `candidate` (an address on file) answers `query` (what someone typed), 0..1: the product of a factor
 * per part, with the tiers in {@link ADDRESS_SCORES}. In short:
 *
 * - 1: same number, street, unit and place (parts the query leaves out of the place cost nothing);
 * - 0.95: the number lies in the candidate's range (`30` for `30-32`) or the ranges overlap (0.9 when on the other
 *   side of the street);
 * - × 0.92 for each suffix or directional the query leaves out; × 0.97 when the query has no unit but the
 *   candidate has (the building is right);
 * - a different house number on the same street: below 0.5, falling towards 0.2 with the gap;
 * - a different street: at most 0.05, unless the names are a typo apart (0.35 to 0.75);
 * - a different city × 0.2, a different state × 0.1.
 *
 * The score is not symmetric: the query may leave parts out, the candidate is what is on file.
 *
 * @example scoreCandidate(normalizeAddress("30 Sciarappa St")!, normalizeAddress("30-32 SCIARAPPA ST")!) // 0.95
 */
export function scoreCandidate(query: NormalizedAddress, candidate: NormalizedAddress): number {
  const score =
    numberFactor(query, candidate) *
    streetFactor(query, candidate) *
    unitFactor(query, candidate) *
    placeFactor(query, candidate);
  return Math.min(1, Math.max(0, score));
}

function numberFactor(query: NormalizedAddress, candidate: NormalizedAddress): number {
  if (!query.number) return candidate.number ? S.numberMissingInQuery : 1;
  if (!candidate.number) return S.numberMissingInCandidate;
  if (query.number === candidate.number) return 1;
  const [queryLow, queryHigh] = bounds(query);
  const [low, high] = bounds(candidate);
  if (queryLow === undefined || queryHigh === undefined || low === undefined || high === undefined) {
    return S.numberDifferentMin;
  }
  if (queryLow === low && queryHigh === high) return S.numberVariant;
  if (queryLow <= high && low <= queryHigh) {
    const otherSide =
      queryLow === queryHigh &&
      low < high &&
      [queryLow, low, high].every(Number.isInteger) &&
      low % 2 === high % 2 &&
      queryLow % 2 !== low % 2;
    return otherSide ? S.numberInRangeOtherSide : S.numberInRange;
  }
  const gap = queryLow > high ? queryLow - high : low - queryHigh;
  return S.numberDifferentMin + (S.numberDifferentMax - S.numberDifferentMin) / (1 + gap / S.numberDistanceScale);
}

function bounds(address: NormalizedAddress): [number | undefined, number | undefined] {
  if (address.numberLow !== undefined && address.numberHigh !== undefined)
    return [address.numberLow, address.numberHigh];
  const range = numberRange(address.number ?? "");
  return [range.low, range.high];
}

function streetFactor(query: NormalizedAddress, candidate: NormalizedAddress): number {
  return (
    nameFactor(query.street, candidate.street) *
    partFactor(query.suffix, candidate.suffix, S.suffixMissing, S.suffixExtra, S.suffixDifferent) *
    directionalFactor(query, candidate)
  );
}

function nameFactor(query: string, candidate: string): number {
  if (query === candidate) return 1;
  const alike = similarity(query, candidate);
  if (alike === 1) return S.nameSpacing;
  if (alike >= S.typoSimilarity) {
    return S.typoMin + ((S.typoMax - S.typoMin) * (alike - S.typoSimilarity)) / (1 - S.typoSimilarity);
  }
  return S.otherStreetMax * alike;
}

function directionalFactor(query: NormalizedAddress, candidate: NormalizedAddress): number {
  if (query.predir === candidate.predir && query.postdir === candidate.postdir) return 1;
  const moved =
    (query.predir && !query.postdir && !candidate.predir && candidate.postdir === query.predir) ||
    (query.postdir && !query.predir && !candidate.postdir && candidate.predir === query.postdir);
  if (moved) return S.directionalMoved;
  const { directionalMissing: missing, directionalExtra: extra, directionalDifferent: different } = S;
  return (
    partFactor(query.predir, candidate.predir, missing, extra, different) *
    partFactor(query.postdir, candidate.postdir, missing, extra, different)
  );
}

/** The factor for an optional part: equal 1, left out of the query `missing`, only in the query `extra`, else `different`. */
function partFactor(
  query: string | undefined,
  candidate: string | undefined,
  missing: number,
  extra: number,
  different: number,
): number {
  if (query === candidate) return 1;
  if (query === undefined) return missing;
  if (candidate === undefined) return extra;
  return different;
}

function unitFactor(query: NormalizedAddress, candidate: NormalizedAddress): number {
  const queryUnit = query.unit ?? query.unitType;
  const unit = candidate.unit ?? candidate.unitType;
  if (queryUnit === unit) return 1;
  if (queryUnit === undefined) return S.unitMissingInQuery;
  if (unit === undefined) return S.unitMissingInCandidate;
  return S.unitDifferent;
}

function placeFactor(query: NormalizedAddress, candidate: NormalizedAddress): number {
  let factor = 1;
  if (query.city && candidate.city && query.city !== candidate.city) {
    factor *= similarity(query.city, candidate.city) >= S.citySimilarity ? S.cityTypo : S.cityDifferent;
  }
  if (query.state && candidate.state && query.state !== candidate.state) factor *= S.stateDifferent;
  if (query.postcode && candidate.postcode && query.postcode !== candidate.postcode) factor *= S.postcodeDifferent;
  return factor;
}
