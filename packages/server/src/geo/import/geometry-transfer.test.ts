import { MessageChannel, receiveMessageOnPort } from "node:worker_threads";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type PackedGeometries,
  packedGeometryReader,
  packGeometries,
  transferList,
  unpackGeometries,
} from "./geometry-transfer.js";

const ring = [
  [-71.1, 42.37],
  [-71.09, 42.37],
  [-71.09, 42.38],
  [-71.1, 42.37],
];
const every = [
  { type: "Point", coordinates: [-71.1, 42.37] },
  {
    type: "MultiPoint",
    coordinates: [
      [-71.1, 42.37],
      [-71.09, 42.38],
    ],
  },
  { type: "LineString", coordinates: ring },
  { type: "MultiLineString", coordinates: [ring, ring.slice(0, 2)] },
  { type: "Polygon", coordinates: [ring, ring] },
  { type: "MultiPolygon", coordinates: [[ring], [ring, ring]] },
  { type: "Polygon", coordinates: [] },
];

/** Posted as an import thread's batch is, and read on the other side. */
function across(packed: PackedGeometries): PackedGeometries {
  const { port1, port2 } = new MessageChannel();
  port1.postMessage(packed, transferList(packed));
  const received = receiveMessageOnPort(port2)?.message as PackedGeometries;
  port1.close();
  return received;
}

describe("geometries crossing to an import thread", () => {
  it("arrive equal to those sent, of every coordinate type, in their order", () => {
    expect(unpackGeometries(across(packGeometries(every)))).toEqual(every);
  });

  it("are read one at a time in any order, each equal to the one sent at that place", () => {
    const sent = [null, ...every, { type: "GeometryCollection", geometries: [every[0]] }, every[4]];
    const geometryAt = packedGeometryReader(across(packGeometries(sent)));
    const backwards = sent.map((_, index) => sent.length - 1 - index);
    expect(backwards.map(geometryAt)).toEqual([...sent].reverse());
    expect(geometryAt(3)).toEqual(sent[3]);
  });

  it("carry each number as the same double", () => {
    const position = fc.tuple(fc.double({ noNaN: true }), fc.double({ noNaN: true }));
    const polygon = fc.array(fc.array(position, { maxLength: 6 }), { maxLength: 3 });
    fc.assert(
      fc.property(fc.array(polygon, { maxLength: 20 }), (polygons) => {
        const geometries = polygons.map((coordinates) => ({ type: "Polygon", coordinates }));
        expect(unpackGeometries(across(packGeometries(geometries)))).toEqual(geometries);
      }),
    );
  });

  it("send what the layout does not hold as it is: no geometry, a collection, positions with z", () => {
    const odd = [
      null,
      { type: "GeometryCollection", geometries: [every[0]] },
      { type: "Point", coordinates: [-71.1, 42.37, 12] },
      { type: "Polygon", coordinates: [[[-71.1, 42.37, 3], ...ring.slice(1)]] },
    ];
    const sent = [every[4], ...odd, every[5]];
    const packed = packGeometries(sent);
    expect(packed.others).toEqual(odd);
    expect(unpackGeometries(across(packed))).toEqual(sent);
  });

  it("hand their buffers over instead of copying them", () => {
    const packed = packGeometries(every);
    const received = across(packed);
    expect(packed.numbers.byteLength).toBe(0);
    expect(received.numbers.length).toBeGreaterThan(0);
  });
});
