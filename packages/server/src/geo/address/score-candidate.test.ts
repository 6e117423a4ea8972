import { describe, expect, it } from "vitest";
import { normalizeAddress, ADDRESS_SCORES as S, scoreCandidate } from "./index.js";

function normalized(text: string) {
  const address = normalizeAddress(text);
  if (!address) throw new Error(`no street in ${text}`);
  return address;
}

const score = (query: string, candidate: string) => scoreCandidate(normalized(query), normalized(candidate));

describe("scoreCandidate tiers", () => {
  it.each<[string, string, number]>([
    ["120 Gore St, Cambridge, MA", "120 GORE ST, CAMBRIDGE, MA 02141", 1],
    ["120 gore street", "120 GORE ST, CAMBRIDGE, MA 02141", 1],
    ["30 Sciarappa St", "30-32 SCIARAPPA ST", S.numberInRange],
    ["30-34 Sciarappa St", "32-36 SCIARAPPA ST", S.numberInRange],
    ["31 Sciarappa St", "30-32 SCIARAPPA ST", S.numberInRangeOtherSide],
    ["12 Elm St", "12A ELM ST", S.numberVariant],
    ["30 Sciarappa", "30-32 SCIARAPPA ST", S.numberInRange * S.suffixMissing],
    ["1 Main St", "1 N MAIN ST", S.directionalMissing],
    ["1 N Main St", "1 MAIN ST", S.directionalExtra],
    ["1 N Main St", "1 MAIN ST N", S.directionalMoved],
    ["1 N Main St", "1 S MAIN ST", S.directionalDifferent],
    ["1 Main St", "1 MAIN AVE", S.suffixDifferent],
    ["1 Broadway St", "1 BROADWAY", S.suffixExtra],
    ["120 Gore St", "120 GORE ST #2", S.unitMissingInQuery],
    ["120 Gore St #2", "120 GORE ST", S.unitMissingInCandidate],
    ["120 Gore St #2", "120 GORE ST UNIT 2", 1],
    ["120 Gore St #2", "120 GORE ST #3", S.unitDifferent],
    ["Gore St", "120 GORE ST", S.numberMissingInQuery],
    ["120 Gore St", "GORE ST", S.numberMissingInCandidate],
    ["120 Gore St", "122 GORE ST", S.numberDifferentMin + (S.numberDifferentMax - S.numberDifferentMin) / 1.5],
    ["219 Monsignor O Brien Hwy", "219 MONSIGNOR OBRIEN HWY", S.nameSpacing],
    ["120 Gore St", "120 GORE ST, CAMBRIDGE, MA", 1],
    ["120 Gore St, Boston", "120 GORE ST, CAMBRIDGE, MA", S.cityDifferent],
    ["120 Gore St, Cambrige", "120 GORE ST, CAMBRIDGE, MA", S.cityTypo],
    ["120 Gore St, NY", "120 GORE ST, CAMBRIDGE, MA", S.stateDifferent],
    ["120 Gore St, 02139", "120 GORE ST, CAMBRIDGE, MA 02141", S.postcodeDifferent],
  ])("%s ~ %s = %d", (query, candidate, expected) => {
    expect(score(query, candidate)).toBeCloseTo(expected, 10);
  });

  it("keeps a different house number at or below 0.5, lower the farther away", () => {
    const scores = [122, 124, 130, 200, 1200].map((number) => score("120 Gore St", `${number} GORE ST`));
    expect(scores[0]).toBeLessThanOrEqual(0.5);
    for (let i = 1; i < scores.length; i += 1) expect(scores[i]).toBeLessThan(scores[i - 1] ?? 0);
    expect(scores.at(-1)).toBeGreaterThanOrEqual(S.numberDifferentMin);
  });

  it("scores a mistyped street between a wrong number and an exact match, another street near 0", () => {
    const typo = score("120 Sciarapa St", "120 SCIARAPPA ST");
    expect(typo).toBeGreaterThan(S.typoMin);
    expect(typo).toBeLessThan(S.typoMax);
    expect(score("120 Goer St", "120 GORE ST")).toBeCloseTo(S.typoMin, 10);
    expect(score("120 Gore St", "120 ELM ST")).toBeLessThanOrEqual(S.otherStreetMax);
    expect(score("120 Gore St", "120 MASSACHUSETTS AVE")).toBeLessThanOrEqual(S.otherStreetMax);
  });

  it("ranks candidates for a query in the expected order", () => {
    const query = "30 Sciarappa St, Cambridge";
    const candidates = [
      "30 SCIARAPPA ST, CAMBRIDGE",
      "30 SCIARAPPA ST #1, CAMBRIDGE",
      "30-32 SCIARAPPA ST, CAMBRIDGE",
      "30 SCIARAPA ST, CAMBRIDGE",
      "26-28 SCIARAPPA ST, CAMBRIDGE",
      "30 SCIARAPPA ST, BOSTON",
      "30 GORE ST, CAMBRIDGE",
    ];
    const ranked = [...candidates].sort((a, b) => score(query, b) - score(query, a));
    expect(ranked).toEqual(candidates);
  });
});
