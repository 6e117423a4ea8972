import { stat } from "node:fs/promises";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import type { TextRecord } from "../types.js";
import { readSourceTexts } from "./index.js";
import { collect } from "./test-collect.js";
import { testFolder } from "./test-folder.js";
import { zipArchive } from "./test-zip.js";

const feature = (id: number) => ({
  type: "Feature",
  properties: { ML: `1-${id}` },
  geometry: { type: "Point", coordinates: [-71.1 + id / 1000, 42.37] },
});

/** The same records in each format a statewide file comes in, as plain text. */
const PLAIN = {
  "lots.geojsonl": Array.from({ length: 300 }, (_, i) => JSON.stringify(feature(i))).join("\n"),
  "lots.geojson": JSON.stringify({
    type: "FeatureCollection",
    features: Array.from({ length: 300 }, (_, i) => feature(i)),
  }),
  "lots.csv": `ML,LON,LAT\n${Array.from({ length: 300 }, (_, i) => `1-${i},${-71.1 + i / 1000},42.37`).join("\n")}`,
};
const CSV_POINTS = { lonColumn: "LON", latColumn: "LAT" };

const { path: folder, written } = testFolder("open-source-test");
beforeAll(async () => {
  for (const [name, text] of Object.entries(PLAIN)) await written(name, text);
});

describe("a source file as published: gzipped, or the one file of a zip", () => {
  it.each(Object.keys(PLAIN))(
    "reads %s.gz as the plain file, its progress counted in the file's bytes",
    async (name) => {
      const options = name.endsWith(".csv") ? CSV_POINTS : {};
      const plain = await collect(join(folder(), name), options);
      expect(plain).toHaveLength(300);
      const gzipped = await written(`${name}.gz`, gzipSync(PLAIN[name as keyof typeof PLAIN]));
      let last = { bytesRead: 0, totalBytes: 0 };
      const records = await collect(gzipped, {
        ...options,
        onProgress: (bytesRead, totalBytes) => {
          last = { bytesRead, totalBytes };
        },
      });
      expect(records).toEqual(plain);
      const { size } = await stat(gzipped);
      expect(last).toEqual({ bytesRead: size, totalBytes: size });
    },
  );

  it("gives a parcel import's threads the texts of a gzipped GeoJSONSeq file, line numbers and all", async () => {
    const texts = async (path: string) => {
      const found: TextRecord[] = [];
      for await (const text of readSourceTexts(path)) found.push(text);
      return found;
    };
    const gzipped = await written("texts.geojsonl.gz", gzipSync(`\n${PLAIN["lots.geojsonl"]}`));
    const read = await texts(gzipped);
    expect(read).toHaveLength(300);
    expect(read[0]).toEqual({ number: 2, text: JSON.stringify(feature(0)) });
  });

  it("reads the one GeoJSON file of a .geojson.zip, past a zip's folders and macOS clutter", async () => {
    const path = await written(
      "Massachusetts.geojson.zip",
      zipArchive({
        "__MACOSX/._Massachusetts.geojson": Buffer.from("resource fork"),
        "state/README.txt": Buffer.from("Building footprints"),
        "state/Massachusetts.geojson": Buffer.from(PLAIN["lots.geojson"]),
      }),
    );
    let last = { bytesRead: 0, totalBytes: 0 };
    const records = await collect(path, {
      onProgress: (bytesRead, totalBytes) => {
        last = { bytesRead, totalBytes };
      },
    });
    expect(records).toEqual(await collect(join(folder(), "lots.geojson")));
    const unzipped = Buffer.byteLength(PLAIN["lots.geojson"]);
    expect(last).toEqual({ bytesRead: unzipped, totalBytes: unzipped });
  });

  it("reads the file --object names of a zip holding several, and refuses to guess", async () => {
    const path = await written(
      "towns.csv.zip",
      zipArchive({ "east.csv": Buffer.from(PLAIN["lots.csv"]), "west.csv": Buffer.from("ML,LON,LAT\n2-1,-71.2,42.3") }),
    );
    expect(await collect(path, { ...CSV_POINTS, object: "west" })).toEqual([
      {
        number: 2,
        feature: { type: "Feature", properties: { ML: "2-1", LON: "-71.2", LAT: "42.3" }, geometry: expect.anything() },
      },
    ]);
    await expect(collect(path, CSV_POINTS)).rejects.toMatchObject({
      code: "unknown_object",
      message: `${path} holds several csv files ("east.csv", "west.csv"); choose one with --object`,
    });
    await expect(collect(path, { ...CSV_POINTS, object: "north" })).rejects.toMatchObject({ code: "unknown_object" });
    const empty = await written("none.geojson.zip", zipArchive({ "lots.csv": Buffer.from(PLAIN["lots.csv"]) }));
    await expect(collect(empty)).rejects.toMatchObject({
      code: "unreadable_source",
      message: `${empty} holds no geojson file`,
    });
  });

  it("reads the one file of a zip whose name says no format in the format given, whatever the file is named", async () => {
    const path = await written(
      "NAD_r17_TXT.zip",
      zipArchive({ "__MACOSX/._NAD_r17.txt": Buffer.from("fork"), "NAD_r17.txt": Buffer.from(PLAIN["lots.csv"]) }),
    );
    expect(await collect(path, { ...CSV_POINTS, format: "csv" })).toEqual(
      await collect(join(folder(), "lots.csv"), CSV_POINTS),
    );
  });

  it("refuses gzip or zip data that is corrupt with a SourceError naming the file, whatever the format", async () => {
    for (const name of ["bad.geojsonl.gz", "bad.geojson.gz", "bad.csv.gz"]) {
      const path = await written(name, Buffer.from("this was never gzipped"));
      await expect(collect(path, name.endsWith(".csv.gz") ? CSV_POINTS : {})).rejects.toMatchObject({
        code: "unreadable_source",
        message: expect.stringContaining(`${path}: not gzip data: incorrect header check`),
      });
    }
    const truncated = await written("cut.geojsonl.gz", gzipSync(PLAIN["lots.geojsonl"]).subarray(0, 500));
    await expect(collect(truncated)).rejects.toMatchObject({
      code: "unreadable_source",
      message: expect.stringContaining("not gzip data: unexpected end of file"),
    });
    const notZip = await written("bad.geojson.zip", Buffer.from("PK\x03\x04 not really a zip"));
    await expect(collect(notZip)).rejects.toMatchObject({
      code: "unreadable_source",
      message: expect.stringContaining(`${notZip}: not a readable zip archive`),
    });
  });

  it("refuses a gzipped shapefile, saying to zip it with its companions", async () => {
    const path = await written("lots.shp.gz", gzipSync("not read"));
    await expect(collect(path)).rejects.toMatchObject({
      code: "unsupported_format",
      message: `${path}: a shapefile cannot be read gzipped; zip its .shp with its .dbf and .prj instead`,
    });
  });
});
