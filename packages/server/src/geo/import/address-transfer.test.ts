import { deserialize, serialize } from "node:v8";
import { describe, expect, it } from "vitest";
import { normalizeAddress } from "../address/index.js";
import type { LocatedAddress } from "./address-locator.js";
import {
  locatedTransferList,
  packAddressRecords,
  packLocated,
  unpackAddressRecords,
  unpackLocated,
} from "./address-transfer.js";
import type { Rejection } from "./import-summary.js";
import type { ReadRecord } from "./run-import.js";

/** What crosses to a thread and back: a structured clone, as `postMessage` makes. */
const crossed = <T>(value: T): T => deserialize(serialize(value)) as T;

const record = (properties: Record<string, unknown>, geometry: unknown = null): ReadRecord =>
  ({ number: 1, feature: { type: "Feature", properties, geometry } }) as ReadRecord;

describe("address transfer", () => {
  it("gives a thread each record's address cell and parcel id cell, whatever they hold", () => {
    const options = { addressColumn: "Location", joinParcel: "ML" };
    const batch = [
      record({ Location: "12 Oak St", ML: "7-18", Other: "left behind" }),
      record({ Location: 12, ML: null }),
      record({}),
    ];
    const { records } = packAddressRecords(batch, options);
    expect(unpackAddressRecords(crossed(records), options).map((read) => read.feature.properties)).toEqual([
      { Location: "12 Oak St", ML: "7-18" },
      { Location: 12, ML: null },
      { Location: undefined, ML: undefined },
    ]);
  });

  it("gives a thread each record's point, or the geometry it has instead", () => {
    const options = { addressColumn: "address" };
    const line = {
      type: "LineString",
      coordinates: [
        [-71.1, 42.3, 5],
        [-71.2, 42.4, 6],
      ],
    };
    const batch = [
      record({ address: "1 Elm St" }, { type: "Point", coordinates: [-71.123456789, 42.987654321] }),
      record({ address: "2 Elm St" }, null),
      record({ address: "3 Elm St" }, line),
    ];
    const { records, transfer } = packAddressRecords(batch, options);
    expect(transfer.length).toBeGreaterThan(0);
    expect(unpackAddressRecords(crossed(records), options).map((read) => read.feature.geometry)).toEqual([
      { type: "Point", coordinates: [-71.123456789, 42.987654321] },
      null,
      line,
    ]);
  });

  it("brings back located addresses and rejections as they were, fields the address lacks absent", () => {
    const address = (line: string) => normalizeAddress(line) ?? expect.fail(`${line} is an address`);
    const results: Array<LocatedAddress | Rejection> = [
      {
        address: address("30-32 N Sciarappa Street Apt 4B, Cambridge, MA 02141-1234"),
        parcelId: 17,
        point: [-71.08, 42.37],
      },
      { reason: "unparseable_address", detail: "PO Box 77" },
      { address: address("12 1/2 Elm St"), parcelId: null, point: [-97.5, 41.25] },
      { address: address("A Maple Ave"), parcelId: 2_147_483_648, point: [0, -0] },
    ];
    const back = unpackLocated(crossed(packLocated(results)));
    expect(back).toStrictEqual(results);
    expect(Object.keys((back[2] as LocatedAddress).address).sort()).toEqual(
      Object.keys((results[2] as LocatedAddress).address).sort(),
    );
  });

  it("sends each text a batch's addresses share once, and hands its columns' buffers over", () => {
    const lines = ["1 Elm St, Cambridge, MA", "3 Elm St, Cambridge, MA", "5 Oak Ave, Somerville, MA"];
    const results: LocatedAddress[] = lines.map((line, i) => ({
      address: normalizeAddress(line) ?? expect.fail(`${line} is an address`),
      parcelId: i,
      point: [-71.1, 42.3 + i / 1000],
    }));
    const packed = packLocated(results);
    // Numbers 1, 3 and 5; streets ELM and OAK; suffixes ST and AVE; two towns; one state.
    expect(packed.texts.reduce((sum, column) => sum + column.values.length, 0)).toBe(10);
    const back = unpackLocated(structuredClone(packed, { transfer: locatedTransferList(packed) }));
    expect(back).toStrictEqual(results);
    expect(packed.places.byteLength).toBe(0);
  });
});
