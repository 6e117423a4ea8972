import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { directionalSpellings, stateNames, stateOf, suffixSpellings } from "./usps-tables.js";

/** parse-address keeps its USPS tables private; its parser is the way to read them. */
const parseAddress = (
  createRequire(import.meta.url)("parse-address") as {
    parseAddress(text: string): Record<string, string> | null;
  }
).parseAddress;

describe("the USPS tables agree with parse-address's", () => {
  it("on every street suffix spelling it knows, and know only a few it does not", () => {
    const unknown: string[] = [];
    for (const [spelling, code] of suffixSpellings()) {
      const type = parseAddress(`1 Elm ${spelling}, Springfield, IL 62701`)?.type?.toUpperCase();
      if (type === undefined) unknown.push(spelling);
      else expect([spelling, type]).toEqual([spelling, code]);
    }
    expect(unknown.sort()).toEqual(["RAMP", "TRAILER", "TRLR", "TRLRS", "WAYS"]);
  });

  it("on every directional", () => {
    for (const [spelling, code] of directionalSpellings()) {
      expect([spelling, parseAddress(`1 ${spelling} Elm St, Springfield, IL 62701`)?.prefix]).toEqual([spelling, code]);
    }
  });

  it("on every state name and code", () => {
    for (const [name, code] of stateNames()) {
      expect(parseAddress(`1 Elm St, Springfield, ${name} 12345`)?.state).toBe(code);
      expect(stateOf(code)).toBe(code);
    }
  });
});
