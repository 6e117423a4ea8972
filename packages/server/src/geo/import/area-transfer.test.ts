import { MessageChannel, receiveMessageOnPort } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import {
  type AreaFromThread,
  type PackedAreas,
  type PreparedOnThread,
  packAreas,
  unpackAreas,
} from "./area-transfer.js";

/** Posted back as an import thread posts a batch's areas, with their buffers handed over, and read here. */
function across(prepared: PreparedOnThread): PackedAreas {
  const { packed, transfer } = packAreas(prepared);
  const { port1, port2 } = new MessageChannel();
  port1.postMessage(packed, transfer);
  const received = receiveMessageOnPort(port2)?.message as PackedAreas;
  port1.close();
  return received;
}

const bytes = (...values: number[]) => Uint8Array.from(values);

describe("a batch's areas crossing back from an import thread", () => {
  it("arrive equal to those sent: ids, positions, stored bytes, boxes, areas, parcels and outcomes", () => {
    const buildings: PreparedOnThread = {
      areas: (
        [
          { sourceId: "b1", positions: [0], bytes: bytes(1, 2, 3), box: [-71.1, 42.3, -71.09, 42.31], areaM2: 120.5 },
          { sourceId: "b7", positions: [1, 4, 9], bytes: bytes(), box: [-71, 42, -70, 43], areaM2: 0.25 },
          { sourceId: "b3", positions: [2], bytes: bytes(255, 0), box: [1, 2, 3, 4], areaM2: 1e6 },
        ] satisfies AreaFromThread[]
      ).map((area, i) => ({ ...area, owner: i === 1 ? null : { parcelId: 40 + i, share: 0.7 + i / 10 } })),
      outcomes: [[3, { reason: "invalid_geometry:ZERO_AREA", detail: "no area" }]],
    };
    expect(unpackAreas(across(buildings))).toEqual(buildings);
  });

  it("carry parcels without an owner, and the attributes of records a thread parsed", () => {
    const parcels: PreparedOnThread = {
      areas: [
        {
          sourceId: "1-2",
          positions: [0, 1],
          bytes: bytes(9),
          box: [0, 0, 1, 1],
          areaM2: 2,
          attributes: { ML: "1-2" },
        },
        { sourceId: "1-3", positions: [2], bytes: bytes(8, 7), box: [1, 0, 2, 1], areaM2: 3, attributes: {} },
      ],
      outcomes: [],
    };
    const received = unpackAreas(across(parcels));
    expect(received).toEqual(parcels);
    expect(received.areas.every((area) => !("owner" in area))).toBe(true);
  });

  it("arrive as an empty batch when every record was rejected", () => {
    const rejected: PreparedOnThread = { areas: [], outcomes: [[0, { reason: "missing_id", detail: "no BID" }]] };
    expect(unpackAreas(across(rejected))).toEqual(rejected);
  });
});
