/**
 * The tiers of {@link scoreCandidate}. A score is the product of one factor per part (house number, street,
 * unit, place), each 1 when the part agrees or the query leaves it out without harm, so an exact match scores 1
 * and every disagreement lowers the score on its own.
 */
export const ADDRESS_SCORES = Object.freeze({
  // House number.
  /** The query's number lies in the candidate's range (`30` in `30-32`), or the two ranges overlap. */
  numberInRange: 0.95,
  /** In the range but on the other side of the street (`31` in `30-32`, whose ends are both even). */
  numberInRangeOtherSide: 0.9,
  /** The same numeric value written differently (`12` and `12A`, `12A` and `12B`). */
  numberVariant: 0.85,
  /**
   * A different number on the same street, `gap` numbers away from the candidate's range:
   * `numberDifferentMin + (numberDifferentMax − numberDifferentMin) / (1 + gap / numberDistanceScale)` — 0.44 next
   * door, 0.4 two away, falling towards 0.2.
   */
  numberDifferentMax: 0.5,
  numberDifferentMin: 0.2,
  numberDistanceScale: 4,
  /** The query has no number, the candidate has one (any house on the street). */
  numberMissingInQuery: 0.6,
  /** The query has a number, the candidate none (the street itself). */
  numberMissingInCandidate: 0.4,

  // Street.
  /** The query leaves out the candidate's suffix or a directional (`30 SCIARAPPA` for `30 SCIARAPPA ST`). */
  suffixMissing: 0.92,
  directionalMissing: 0.92,
  /** The query has a suffix or directional that the candidate has not (`1 BROADWAY ST`). */
  suffixExtra: 0.85,
  directionalExtra: 0.85,
  /** One directional, written before the name in one and after the suffix in the other (`N ELM ST`, `ELM ST N`). */
  directionalMoved: 0.9,
  /** Both have a suffix, or a directional in the same place, and they differ (`MAIN ST` and `MAIN AVE`; `N` and `S`). */
  suffixDifferent: 0.5,
  directionalDifferent: 0.3,
  /** Names that differ only in spacing (`O BRIEN` and `OBRIEN`). */
  nameSpacing: 0.95,
  /** Names at least this alike (see `similarity`) are one name mistyped: `typoMin` at the threshold up to `typoMax`. */
  typoSimilarity: 0.75,
  typoMin: 0.35,
  typoMax: 0.75,
  /** Names less alike are different streets: at most this, scaled by their similarity. */
  otherStreetMax: 0.05,

  // Unit.
  /** The query names the building, the candidate is one of its units. */
  unitMissingInQuery: 0.97,
  /** The query names a unit, the candidate is the whole building. */
  unitMissingInCandidate: 0.9,
  /** Both name a unit, a different one (the building is right). */
  unitDifferent: 0.7,

  // Place: a part absent from either side costs nothing.
  /** Cities at least `citySimilarity` alike (a typo) and cities that differ. */
  citySimilarity: 0.8,
  cityTypo: 0.9,
  cityDifferent: 0.2,
  stateDifferent: 0.1,
  postcodeDifferent: 0.6,
} as const);
