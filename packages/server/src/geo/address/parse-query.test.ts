import { describe, expect, it } from "vitest";
import { type AddressQuery, parseQuery } from "./index.js";

describe("parseQuery", () => {
  it("reads a half-typed suffix", () => {
    const query = parseQuery("120 gore s");
    expect(query).toMatchObject({
      number: "120",
      numberLow: 120,
      numberHigh: 120,
      streetPrefix: "GORE S",
      suffixPrefix: "S",
    });
    expect(query.streetPrefixes).toEqual(["GORE S"]);
    expect(query.suffixes).toContain("ST");
    expect(query.suffixes).toContain("SQ");
    expect(query.suffixes).not.toContain("AVE");
  });

  it.each<[string, Partial<AddressQuery>]>([
    ["", { streetPrefixes: [""], streetPrefix: "" }],
    ["120", { number: "120", streetPrefixes: [""], streetPrefix: "" }],
    ["120 ", { number: "120", streetPrefixes: [""], streetPrefix: "" }],
    ["120 g", { streetPrefixes: ["G"], streetPrefix: "G" }],
    ["5 mass", { number: "5", streetPrefixes: ["MASS"], streetPrefix: "MASS" }],
    [
      "120 gore stre",
      { streetPrefixes: ["GORE ST"], streetPrefix: "GORE ST", suffixPrefix: "STRE", suffixes: ["ST", "STRM", "STS"] },
    ],
    ["120 gore st", { streetPrefixes: ["GORE ST"], streetPrefix: "GORE ST" }],
    ["120 gore st ", { streetPrefixes: ["GORE ST"], streetPrefix: "GORE ST" }],
    ["120 gore street ", { streetPrefixes: ["GORE ST"], streetPrefix: "GORE ST" }],
    ["120 gore bou", { streetPrefixes: ["GORE BLVD", "GORE BOU"], streetPrefix: "GORE B", suffixes: ["BLVD"] }],
    ["12 elm st no", { streetPrefixes: ["ELM ST N"], streetPrefix: "ELM ST N" }],
    ["350 north ma", { streetPrefixes: ["N MA", "NORTH MA", "NORTH MNR"], streetPrefix: "N" }],
    ["nor", { streetPrefixes: ["N ", "NE ", "NOR", "NW "], streetPrefix: "N" }],
    ["1 mount aub", { streetPrefixes: ["MT AUB"] }],
    ["87 sixth", { streetPrefixes: ["6TH", "SIXTH"] }],
    ["30-32 sciarappa st", { number: "30-32", numberLow: 30, numberHigh: 32, streetPrefixes: ["SCIARAPPA ST"] }],
  ])("%j", (text, expected) => {
    expect(parseQuery(text)).toMatchObject(expected);
  });

  it("reads a word that is shortened inside a name both ways", () => {
    const { streetPrefixes } = parseQuery("1 mount s");
    expect(streetPrefixes).toContain("MT S");
    expect(streetPrefixes).toContain("MOUNT ST");
  });

  it("takes the street as finished once a unit or a comma follows", () => {
    expect(parseQuery("120 gore st apt 4")).toEqual({
      number: "120",
      numberLow: 120,
      numberHigh: 120,
      streetPrefixes: ["GORE ST"],
      streetPrefix: "GORE ST",
      unitType: "APT",
      unit: "4",
    });
    expect(parseQuery("120 gore st, cambridge, ma")).toMatchObject({
      streetPrefixes: ["GORE ST"],
      city: "CAMBRIDGE",
      state: "MA",
    });
    expect(parseQuery("120 gore st,")).toMatchObject({ streetPrefixes: ["GORE ST"] });
  });

  it("returns prefixes of which none is a prefix of another, sorted", () => {
    for (const text of ["1 n", "1 north s", "1 sai", "1 elm st e", "120 gore s"]) {
      const { streetPrefixes, streetPrefix } = parseQuery(text);
      expect([...streetPrefixes].sort()).toEqual(streetPrefixes);
      for (const prefix of streetPrefixes) {
        expect(prefix.startsWith(streetPrefix)).toBe(true);
        expect(streetPrefixes.filter((other) => prefix.startsWith(other))).toEqual([prefix]);
      }
    }
  });
});
