import type { AddressCandidate } from "@lotline/contract";
import { describe, expect, it } from "vitest";
import { chooseCandidate } from "./choose-candidate";

const candidate = (address_id: number, score: number): AddressCandidate => ({
  address_id,
  address: `${address_id} ELM ST, SPRINGFIELD, MA`,
  score,
  location: { lat: 42, lon: -71 },
  parcel_id: null,
});

describe("chooseCandidate", () => {
  it("uses a best candidate of 0.9 or more that is ahead of the next", () => {
    expect(chooseCandidate([candidate(1, 0.95), candidate(2, 0.8)])).toEqual({
      kind: "clear",
      candidate: candidate(1, 0.95),
    });
    expect(chooseCandidate([candidate(1, 1)])).toMatchObject({ kind: "clear" });
  });

  it("offers a choice when the best candidates tie, even at 1", () => {
    const tie = [candidate(1, 1), candidate(2, 1), candidate(3, 0.4)];
    expect(chooseCandidate(tie)).toEqual({ kind: "choose", candidates: [candidate(1, 1), candidate(2, 1)] });
  });

  it("offers the plausible candidates when none is good enough on its own", () => {
    const choice = chooseCandidate([candidate(1, 0.6), candidate(2, 0.85), candidate(3, 0.3)]);
    expect(choice).toEqual({ kind: "choose", candidates: [candidate(2, 0.85), candidate(1, 0.6)] });
  });

  it("finds none when nothing matches, or only far-fetched candidates", () => {
    expect(chooseCandidate([])).toEqual({ kind: "none" });
    expect(chooseCandidate([candidate(1, 0.44), candidate(2, 0.05)])).toEqual({ kind: "none" });
  });
});
