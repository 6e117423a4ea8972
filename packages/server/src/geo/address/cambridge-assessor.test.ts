import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { type CsvRecord, CsvRecords, cellsByName } from "../readers/csv-records.js";
import { addressKey, formatAddress, normalizeAddress, scoreCandidate, streetKey } from "./index.js";

const ASSESSOR = fileURLToPath(new URL("../../../../../../shared/data/cambridge/assessor-fy2014.csv", import.meta.url));
const haveAssessor = existsSync(ASSESSOR);

describe.skipIf(!haveAssessor)(
  "the Cambridge assessor's Location column (../shared/data; skipped where absent)",
  () => {
    const rows = haveAssessor ? rowsOf(readFileSync(ASSESSOR, "utf8")) : [];
    const locations = [...new Set(rows.map((row) => row.Location ?? ""))];
    const defaults = { city: "Cambridge", state: "MA" };
    const addresses = locations.map((location) => normalizeAddress(location, defaults));

    it("holds thousands of distinct locations", () => {
      expect(rows.length).toBe(27_528);
      expect(locations.length).toBeGreaterThan(27_000);
    });

    it("normalizes at least 99.5 % of them to a street", () => {
      const failed = addresses.filter((address) => !address?.street);
      expect(failed.length / locations.length).toBeLessThanOrEqual(0.005);
    });

    it("reads its own canonical form back to the same address", () => {
      const moved = locations.filter((_, index) => {
        const address = addresses[index];
        return (
          address && JSON.stringify(normalizeAddress(formatAddress(address), defaults)) !== JSON.stringify(address)
        );
      });
      expect(moved).toEqual([]);
    });

    it("reads its own canonical form back without defaults too (every 7th location)", () => {
      const moved = locations.filter((location, index) => {
        if (index % 7 !== 0) return false;
        const address = normalizeAddress(location);
        return address && JSON.stringify(normalizeAddress(formatAddress(address))) !== JSON.stringify(address);
      });
      expect(moved).toEqual([]);
    });

    it("reads the shapes that occur", () => {
      const shapes: [string, string][] = [
        ["9 BELLIS CIR", "9 BELLIS CIR, CAMBRIDGE, MA"],
        ["1  HANCOCK PK  #1", "1 HANCOCK PARK # 1, CAMBRIDGE, MA"],
        ["1-3-5 SPERIDAKIS TER #1", "1-3-5 SPERIDAKIS TER # 1, CAMBRIDGE, MA"],
        ["10 CORPORAL MCTERNAN ST #C-201", "10 CORPORAL MCTERNAN ST # C-201, CAMBRIDGE, MA"],
        ["1 HAMPSHIRE ST #2/3/4-S", "1 HAMPSHIRE ST # 2/3/4-S, CAMBRIDGE, MA"],
        ["204 ELM ST NORTH", "204 ELM ST N, CAMBRIDGE, MA"],
        ["164 ELM ST NORTH #164/1", "164 ELM ST N # 164/1, CAMBRIDGE, MA"],
        ["219 MONSIGNOR OBRIEN HWY", "219 MONSIGNOR OBRIEN HWY, CAMBRIDGE, MA"],
        ["30-32 SCIARAPPA ST", "30-32 SCIARAPPA ST, CAMBRIDGE, MA"],
        ["11 GRAY GDNS E", "11 GRAY GDNS E, CAMBRIDGE, MA"],
        ["45 1/2 MT AUBURN ST", "45 1/2 MT AUBURN ST, CAMBRIDGE, MA"],
        ["12 A PLYMPTON ST", "12A PLYMPTON ST, CAMBRIDGE, MA"],
        ["394(390) WASHINGTON ST", "394 WASHINGTON ST, CAMBRIDGE, MA"],
        ["REAR 65 MT AUBURN ST", "65 MT AUBURN ST REAR, CAMBRIDGE, MA"],
        ["126 OXFORD ST PS1", "126 OXFORD ST # PS1, CAMBRIDGE, MA"],
        ["1 KENDALL SQ-2", "1 KENDALL SQ # 2, CAMBRIDGE, MA"],
        ["87.5 SIXTH ST", "87.5 6TH ST, CAMBRIDGE, MA"],
        ["ALEWIFE BROOK PKWY", "ALEWIFE BROOK PKWY, CAMBRIDGE, MA"],
      ];
      for (const [location, expected] of shapes) {
        expect(locations).toContain(location);
        const address = normalizeAddress(location, defaults);
        expect(address && formatAddress(address)).toBe(expected);
      }
    });

    it("finds a location typed freely among the rows of its street", () => {
      const query = normalizeAddress("32 Sciarappa Street, Cambridge, Massachusetts");
      expect(query).toBeDefined();
      if (!query) return;
      const street = addresses.filter((address) => address && streetKey(address) === streetKey(query));
      expect(street.length).toBeGreaterThan(20);
      const ranked = street
        .filter((address) => address !== undefined)
        .sort((a, b) => scoreCandidate(query, b) - scoreCandidate(query, a));
      expect(ranked.slice(0, 3).map(addressKey)).toEqual([
        "SCIARAPPA ST|30-32||CAMBRIDGE|MA",
        "SCIARAPPA ST|33||CAMBRIDGE|MA",
        "SCIARAPPA ST|35||CAMBRIDGE|MA",
      ]);
    });
  },
);

/** The rows of a whole CSV text, by the header's column names. */
function rowsOf(text: string): Record<string, string>[] {
  const splitter = new CsvRecords();
  const [header, ...records] = [...splitter.push(text), ...splitter.end()].map((record: CsvRecord) =>
    "cells" in record ? record.cells : [],
  );
  return records.map((cells) => cellsByName(header ?? [], cells));
}
