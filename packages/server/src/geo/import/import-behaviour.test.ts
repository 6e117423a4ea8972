import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatasetKind } from "../../db/schema.js";
import { runCli } from "../../test/run-cli.js";
import { createTestDatabase, type TestDatabase } from "../../test/test-database.js";
import { geodesicArea } from "../geometry/index.js";
import { locateAddress } from "../locate/locate-address.js";
import { reverseLocate } from "../locate/reverse-locate.js";
import { searchAddresses } from "../locate/search-addresses.js";
import { geoPackageGeometry, writeGeoPackage } from "../readers/test-geopackage.js";
import { zipArchive } from "../readers/test-zip.js";
import { addressLine } from "../store/address-line.js";
import { decodeGeometry } from "../store/geometry-codec.js";
import { attributesFrom } from "../store/stored-attributes.js";
import { encodeWkb } from "../store/wkb.js";
import type { Area, Geometry, LonLat } from "../types.js";
import { importFile } from "./import-file.js";
import { DUPLICATE_REASON } from "./import-policy.js";

/**
 * `lotline import` on small generated files: what the operator sees on the command line and what ends up stored.
 * Every test works in a patch of the map of its own (parcels of every dataset take part in assigning buildings and
 * locating addresses), with datasets of its own.
 */

interface Summary {
  read: number;
  imported: number;
  updated: number;
  unchanged: number;
  merged: number;
  rejected: number;
  rejected_by_reason: Record<string, number>;
  rejections: Array<{ number: number; reason: string; detail?: string }>;
}

/** Map units: one is 0.001° (about 110 m north–south, 85 m east–west at these latitudes). */
const UNIT = 0.001;

let testDatabase: TestDatabase;
let folder: string;

beforeAll(async () => {
  testDatabase = await createTestDatabase();
  folder = mkdtempSync(join(tmpdir(), "lotline-import-"));
});
afterAll(async () => {
  await testDatabase?.destroy();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

async function lotline(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return runCli(argv, { LOTLINE_DATABASE_URL: testDatabase.url, LOTLINE_PUBLIC_URL: "http://lotline.test" });
}

/** `lotline import … --json`, which must succeed with one JSON object and read = imported+updated+merged+rejected. */
async function importJson(argv: string[]): Promise<Summary> {
  const run = await lotline(["import", ...argv, "--json"]);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  expect(run.stdout.trimEnd().split("\n")).toHaveLength(1);
  const summary = JSON.parse(run.stdout) as Summary;
  expect(summary.read).toBe(summary.imported + summary.updated + summary.unchanged + summary.merged + summary.rejected);
  return summary;
}

/** Writes a fixture file into the test's folder and returns its path. */
function fixture(name: string, content: string): string {
  const path = join(folder, name);
  writeFileSync(path, content);
  return path;
}

type Props = Record<string, unknown>;
const featureOf = (geometry: Geometry | null, properties: Props) => ({ type: "Feature", properties, geometry });
const collection = (features: object[]) => JSON.stringify({ type: "FeatureCollection", features });
const ndjson = (features: object[]) => `${features.map((feature) => JSON.stringify(feature)).join("\n")}\n`;

/** A rectangle in map units from `origin`. */
function rect(origin: LonLat, x0: number, y0: number, x1: number, y1: number): Area {
  const at = (x: number, y: number) => [origin[0] + x * UNIT, origin[1] + y * UNIT];
  return { type: "Polygon", coordinates: [[at(x0, y0), at(x1, y0), at(x1, y1), at(x0, y1), at(x0, y0)]] };
}
const point = (origin: LonLat, x: number, y: number): LonLat => [origin[0] + x * UNIT, origin[1] + y * UNIT];

/** `lotline import addresses` arguments for a CSV file of `address,x,y` rows, located by their points. */
const pointAddresses = (name: string, rows: string[]) => [
  "addresses",
  fixture(name, ["address,x,y", ...rows].join("\n")),
  "--address-column",
  "address",
  "--lon-column",
  "x",
  "--lat-column",
  "y",
];

const db = () => testDatabase.database.db;

async function datasetRow(kind: DatasetKind, name: string) {
  return db().selectFrom("datasets").selectAll().where("kind", "=", kind).where("name", "=", name).executeTakeFirst();
}

async function parcelsOf(name: string) {
  const dataset = await datasetRow("parcels", name);
  if (!dataset) return [];
  return db()
    .selectFrom("parcels")
    .selectAll()
    .where("dataset_id", "=", dataset.dataset_id)
    .orderBy("source_id")
    .execute();
}

async function buildingsOf(name: string) {
  const dataset = await datasetRow("buildings", name);
  if (!dataset) return [];
  return db()
    .selectFrom("buildings")
    .selectAll()
    .where("dataset_id", "=", dataset.dataset_id)
    .orderBy("source_id")
    .execute();
}

describe("an import is all-or-nothing", () => {
  it("a file that breaks off halfway exits non-zero and leaves no parcel and no dataset behind", async () => {
    const origin: LonLat = [-100, 40];
    // 1,200 parcels: more than one batch of them has been read (and written, inside the transaction) when the
    // reader meets the end of the truncated file.
    const whole = collection(
      Array.from({ length: 1200 }, (_, index) =>
        featureOf(rect(origin, index % 40, Math.floor(index / 40), (index % 40) + 0.9, Math.floor(index / 40) + 0.9), {
          APN: `T-${index}`,
        }),
      ),
    );
    const path = fixture("truncated.geojson", whole.slice(0, Math.floor(whole.length * 0.7)));
    const run = await lotline(["import", "parcels", path, "--id-field", "APN", "--name", "Truncated", "--json"]);
    expect(run.code).not.toBe(0);
    expect(run.stdout).toBe("");
    expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain("truncated.geojson");

    expect(await datasetRow("parcels", "Truncated")).toBeUndefined();
    const stray = await db().selectFrom("parcels").select("parcel_id").where("source_id", "like", "T-%").execute();
    expect(stray).toEqual([]);
    expect(
      await db().selectFrom("imports").select("import_id").where("source", "=", "truncated.geojson").execute(),
    ).toEqual([]);
  });

  it("the same file complete imports every parcel", async () => {
    const origin: LonLat = [-100, 40];
    const path = fixture(
      "complete.geojson",
      collection(
        Array.from({ length: 1200 }, (_, index) =>
          featureOf(
            rect(origin, index % 40, Math.floor(index / 40), (index % 40) + 0.9, Math.floor(index / 40) + 0.9),
            {
              APN: `T-${index}`,
            },
          ),
        ),
      ),
    );
    const summary = await importJson(["parcels", path, "--id-field", "APN", "--name", "Truncated"]);
    expect(summary).toMatchObject({ read: 1200, imported: 1200, rejected: 0 });
    expect(await parcelsOf("Truncated")).toHaveLength(1200);
  });
});

describe("rejected records are reported by number and reason", () => {
  const origin: LonLat = [-99, 40];

  it("repairs a bow-tie, rejects a 2-position polygon, a feature without id and a point; stores only the good ones", async () => {
    const at = (x: number, y: number) => point(origin, x, y);
    const path = fixture(
      "mixed-parcels.geojson",
      collection([
        featureOf(rect(origin, 0, 0, 1, 1), { APN: "GOOD-1" }),
        featureOf(
          { type: "Polygon", coordinates: [[at(2, 0), at(3, 1), at(3, 0), at(2, 1), at(2, 0)]] },
          { APN: "BOWTIE-2" },
        ),
        featureOf(
          { type: "Polygon", coordinates: [[at(4, 0), at(5, 1), at(4, 0), at(5, 1), at(4, 0)]] },
          { APN: "FLAT-3" },
        ),
        featureOf(rect(origin, 6, 0, 7, 1), { OWNER: "no APN here" }),
        featureOf({ type: "Point", coordinates: at(8, 0) }, { APN: "POINT-5" }),
        featureOf(rect(origin, 9, 0, 10, 1), { APN: "  " }),
      ]),
    );
    const summary = await importJson([
      "parcels",
      path,
      "--id-field",
      "APN",
      "--max-rejected",
      "100",
      "--name",
      "Mixed",
    ]);
    expect(summary).toMatchObject({ read: 6, imported: 2, updated: 0, merged: 0, rejected: 4 });
    const byNumber = Object.fromEntries(summary.rejections.map((rejection) => [rejection.number, rejection]));
    expect(Object.keys(byNumber).map(Number).sort()).toEqual([3, 4, 5, 6]);
    expect(byNumber[3]?.reason).toBe("invalid_geometry:TOO_FEW_POSITIONS");
    expect(byNumber[3]?.detail).toMatch(/2 distinct positions/);
    expect(byNumber[4]?.reason).toBe("missing_id");
    expect(byNumber[4]?.detail).toContain("APN");
    expect(byNumber[5]?.reason).toMatch(/^invalid_geometry:/);
    expect(byNumber[6]?.reason).toBe("missing_id");
    expect(summary.rejected_by_reason).toEqual({
      "invalid_geometry:TOO_FEW_POSITIONS": 1,
      missing_id: 2,
      [byNumber[5]?.reason as string]: 1,
    });

    const stored = await parcelsOf("Mixed");
    expect(stored.map((row) => row.source_id)).toEqual(["BOWTIE-2", "GOOD-1"]);
    // The bow-tie's two triangles hold half its square.
    const [bowtie, good] = stored;
    expect(bowtie?.area_m2).toBeCloseTo((good?.area_m2 ?? 0) / 2, 0);
    expect(bowtie && decodeGeometry(bowtie.boundary).type).toBe("MultiPolygon");
  });

  it("numbers the records of an NDJSON file by line, an unreadable line included, and reads on after it", async () => {
    const at = (x: number, y: number) => point(origin, x, y);
    const lines = ndjson([featureOf(rect(origin, 0, 2, 1, 3), { APN: "LINE-1" })]).split("\n");
    const path = fixture(
      "lines.ndjson",
      [
        lines[0],
        '{"type": "Feature", "properties": {"APN": "LINE-2"}, "geometry": ',
        JSON.stringify(
          featureOf({ type: "Polygon", coordinates: [[at(2, 2), at(3, 3), at(2, 2), at(2, 2)]] }, { APN: "LINE-3" }),
        ),
        JSON.stringify(featureOf(rect(origin, 4, 2, 5, 3), { APN: "LINE-4" })),
      ].join("\n"),
    );
    const summary = await importJson([
      "parcels",
      path,
      "--id-field",
      "APN",
      "--max-rejected",
      "100",
      "--name",
      "Lines",
    ]);
    expect(summary).toMatchObject({ read: 4, imported: 2, rejected: 2 });
    expect(summary.rejections.map(({ number, reason }) => ({ number, reason }))).toEqual([
      { number: 2, reason: "unreadable" },
      { number: 3, reason: "invalid_geometry:TOO_FEW_POSITIONS" },
    ]);
    expect((await parcelsOf("Lines")).map((row) => row.source_id)).toEqual(["LINE-1", "LINE-4"]);
  });

  it("the text output (without --json) lists the counts and each rejected record by number", async () => {
    const path = fixture(
      "mixed-text.geojson",
      collection([featureOf(rect(origin, 0, 3, 1, 4), { APN: "TEXT-1" }), featureOf(rect(origin, 2, 3, 3, 4), {})]),
    );
    const run = await lotline([
      "import",
      "parcels",
      path,
      "--id-field",
      "APN",
      "--max-rejected",
      "100",
      "--name",
      "Mixed text",
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("read 2, imported 1, updated 0, unchanged 0, merged 0, rejected 1");
    expect(run.stdout).toMatch(/record 2: missing_id/);
  });
});

describe("parcel ids", () => {
  const origin: LonLat = [-98, 40];

  it("two features with one id become one parcel whose area is the sum; importing again updates it", async () => {
    const pieces = [rect(origin, 0, 0, 1, 1), rect(origin, 3, 0, 5, 1)];
    const path = fixture(
      "pieces.geojson",
      collection([
        featureOf(pieces[0] as Area, { APN: "LOT-7", PART: "north" }),
        featureOf(rect(origin, 1.5, 0, 2.5, 1), { APN: "LOT-8" }),
        featureOf(pieces[1] as Area, { APN: "LOT-7", PART: "south" }),
      ]),
    );
    const first = await importJson(["parcels", path, "--id-field", "APN", "--name", "Pieces"]);
    expect(first).toMatchObject({ read: 3, imported: 2, merged: 1, updated: 0, rejected: 0 });

    const stored = await parcelsOf("Pieces");
    expect(stored.map((row) => row.source_id)).toEqual(["LOT-7", "LOT-8"]);
    const lot7 = stored[0];
    const sum = pieces.reduce((total, piece) => total + geodesicArea(piece), 0);
    expect(lot7?.area_m2).toBeGreaterThan(0);
    expect(Math.abs((lot7?.area_m2 ?? 0) - sum) / sum).toBeLessThan(1e-6);
    const boundary = decodeGeometry(lot7?.boundary ?? new Uint8Array()) as Area;
    expect(boundary.type).toBe("MultiPolygon");
    expect(boundary.coordinates).toHaveLength(2);

    const again = await importJson(["parcels", path, "--id-field", "APN", "--name", "Pieces"]);
    // Nothing differs: nothing is rewritten, and the pieces still fold into the one lot.
    expect(again).toMatchObject({ read: 3, imported: 0, updated: 0, unchanged: 2, merged: 1, rejected: 0 });
    const after = await parcelsOf("Pieces");
    expect(after.map((row) => [row.parcel_id, row.source_id, row.area_m2])).toEqual(
      stored.map((row) => [row.parcel_id, row.source_id, row.area_m2]),
    );
  });
  it("a lot whose pieces fall in different batches stays whole when the same file is imported again", async () => {
    // 500 records make a batch: the lot's first piece opens the file, its second piece is the 502nd record.
    const at = (i: number) =>
      rect(origin, (i % 25) * 2, 10 + Math.floor(i / 25) * 2, (i % 25) * 2 + 1, 11 + Math.floor(i / 25) * 2);
    const pieces = [rect(origin, 0, 60, 1, 61), rect(origin, 3, 60, 4, 61)];
    const features = [
      featureOf(pieces[0] as Area, { APN: "SPLIT-1" }),
      ...Array.from({ length: 500 }, (_, i) => featureOf(at(i), { APN: `FILL-${i}` })),
      featureOf(pieces[1] as Area, { APN: "SPLIT-1" }),
    ];
    const path = fixture("split-lot.geojson", collection(features));
    const first = await importJson(["parcels", path, "--id-field", "APN", "--name", "Split"]);
    expect(first).toMatchObject({ read: 502, imported: 501, merged: 1 });
    const area = async () => (await parcelsOf("Split")).find((row) => row.source_id === "SPLIT-1")?.area_m2;
    const whole = await area();
    expect(whole).toBeCloseTo(geodesicArea(pieces[0] as Area) + geodesicArea(pieces[1] as Area), 3);

    const again = await importJson(["parcels", path, "--id-field", "APN", "--name", "Split"]);
    // The first piece replaces the stored lot and the second merges into it: it ends as it was, and says so.
    expect(again).toMatchObject({ read: 502, imported: 0, updated: 0, unchanged: 501, merged: 1, rejected: 0 });
    expect(await area()).toBe(whole);
  });

  it("a footprint whose pieces fall in different batches of a new dataset is stored whole", async () => {
    // A first load looks up only the ids it may have written: the second piece must still find the first.
    const at = (i: number) =>
      rect(origin, 60 + (i % 25) * 2, 10 + Math.floor(i / 25) * 2, 61 + (i % 25) * 2, 11 + Math.floor(i / 25) * 2);
    const pieces = [rect(origin, 60, 60, 61, 61), rect(origin, 63, 60, 64, 61)];
    const features = [
      featureOf(pieces[0] as Area, { BID: "SPLIT-B" }),
      ...Array.from({ length: 500 }, (_, i) => featureOf(at(i), { BID: `FILL-B-${i}` })),
      featureOf(pieces[1] as Area, { BID: "SPLIT-B" }),
    ];
    const path = fixture("split-building.geojson", collection(features));
    const first = await importJson(["buildings", path, "--id-field", "BID", "--name", "Split buildings"]);
    expect(first).toMatchObject({ read: 502, imported: 501, merged: 1, rejected: 0 });
    const stored = (await buildingsOf("Split buildings")).find((row) => row.source_id === "SPLIT-B");
    expect(stored?.area_m2).toBeCloseTo(geodesicArea(pieces[0] as Area) + geodesicArea(pieces[1] as Area), 3);
  });
});

describe("statewide files as they are published", () => {
  it("imports parcels from a .geojsonl.gz and buildings from a .geojson.zip, each named after the file inside", async () => {
    const origin: LonLat = [-93, 40];
    const lots = Array.from({ length: 1200 }, (_, i) =>
      featureOf(
        rect(origin, (i % 40) * 0.1, Math.floor(i / 40) * 0.1, (i % 40) * 0.1 + 0.1, Math.floor(i / 40) * 0.1 + 0.1),
        {
          APN: `93-${i}`,
        },
      ),
    );
    const parcels = join(folder, "County.geojsonl.gz");
    writeFileSync(parcels, gzipSync(ndjson(lots)));
    expect(await importJson(["parcels", parcels, "--id-field", "APN"])).toMatchObject({ read: 1200, imported: 1200 });
    expect(await parcelsOf("County")).toHaveLength(1200);

    // As Microsoft publishes a state's footprints: one FeatureCollection zipped, with no id of its own.
    const footprints = lots.map((_, i) =>
      featureOf(
        rect(
          origin,
          (i % 40) * 0.1 + 0.02,
          Math.floor(i / 40) * 0.1 + 0.02,
          (i % 40) * 0.1 + 0.08,
          Math.floor(i / 40) * 0.1 + 0.08,
        ),
        {
          release: 2,
        },
      ),
    );
    const buildings = join(folder, "State.geojson.zip");
    writeFileSync(buildings, zipArchive({ "State.geojson": Buffer.from(collection(footprints)) }));
    expect(await importJson(["buildings", buildings])).toMatchObject({ read: 1200, imported: 1200, rejected: 0 });
    const stored = await buildingsOf("State");
    const lotOf = new Map((await parcelsOf("County")).map((row) => [row.parcel_id, row.source_id]));
    expect(stored).toHaveLength(1200);
    // Each footprint inside its own lot: feature n on lot 93-(n-1).
    for (const building of stored) {
      expect(lotOf.get(building.parcel_id as number)).toBe(`93-${Number(building.source_id.slice(1)) - 1}`);
    }
  });

  it("imports parcels from a GeoPackage's feature table and addresses from its attributes table", async () => {
    const origin: LonLat = [-94, 40];
    const lots = Array.from({ length: 600 }, (_, i) => rect(origin, i * 0.1, 0, i * 0.1 + 0.1, 0.1));
    const path = join(folder, "Story.gpkg");
    writeGeoPackage(path, [
      {
        name: "County_Parcels",
        dataType: "features",
        columns: { APN: "TEXT" },
        // Feature ids as the publisher gave them, from 101: the rejected one is reported by its id.
        rows: lots.map((lot, i) => ({
          fid: 101 + i,
          geom: geoPackageGeometry(encodeWkb(lot)),
          APN: i === 5 ? null : `94-${i}`,
        })),
      },
      {
        name: "Situs",
        dataType: "attributes",
        columns: { SITUS: "TEXT", APN: "TEXT" },
        rows: [
          { SITUS: "12 Prairie Rd, Ames, IA", APN: "94-1" },
          { SITUS: "14 Prairie Rd, Ames, IA", APN: "94-2" },
        ],
      },
    ]);
    const parcels = await importJson(["parcels", path, "--object", "County_Parcels", "--id-field", "APN"]);
    expect(parcels).toMatchObject({ read: 600, imported: 599, rejected: 1 });
    expect(parcels.rejections).toEqual([expect.objectContaining({ number: 106, reason: "missing_id" })]);
    const stored = await parcelsOf("Story");
    expect(stored).toHaveLength(599);
    const lot = stored.find((row) => row.source_id === "94-7");
    expect(decodeGeometry(lot?.boundary as Uint8Array)).toEqual(lots[7]);

    const situs = ["addresses", path, "--object", "situs", "--address-column", "SITUS", "--join-parcel", "APN"];
    expect(await importJson(situs)).toMatchObject({ read: 2, imported: 2 });
    const [found] = await locateAddress(testDatabase.database, "14 Prairie Rd, Ames, IA");
    expect(found).toMatchObject({ address: "14 PRAIRIE RD, AMES, IA", score: 1 });
    expect(found?.parcel_id).toBe(stored.find((row) => row.source_id === "94-2")?.parcel_id);
  });
});

describe("buildings belong to the parcel holding most of their footprint", () => {
  it("a building straddling two lots 70/30 is assigned to the 70 one", async () => {
    const origin: LonLat = [-97, 40];
    const parcels = fixture(
      "two-lots.geojson",
      collection([
        featureOf(rect(origin, 0, 0, 1, 1), { APN: "12-1" }),
        featureOf(rect(origin, 1, 0, 2, 1), { APN: "12-2" }),
      ]),
    );
    await importJson(["parcels", parcels, "--id-field", "APN", "--name", "Two lots"]);
    // NDJSON, one building per line: 0.3 → 1.3 lies 70 % on 12-1 and 30 % on 12-2; the other wholly on 12-2.
    const buildings = fixture(
      "straddling.ndjson",
      ndjson([
        featureOf(rect(origin, 0.3, 0.4, 1.3, 0.6), { BID: "B-STRADDLE" }),
        featureOf(rect(origin, 1.5, 0.2, 1.8, 0.4), { BID: "B-EAST" }),
      ]),
    );
    const summary = await importJson(["buildings", buildings, "--id-field", "BID", "--name", "Straddling"]);
    expect(summary).toMatchObject({ read: 2, imported: 2, rejected: 0 });

    const [west, east] = [
      (await parcelsOf("Two lots")).find((row) => row.source_id === "12-1"),
      (await parcelsOf("Two lots")).find((row) => row.source_id === "12-2"),
    ];
    const stored = await buildingsOf("Straddling");
    expect(stored.map((row) => [row.source_id, row.parcel_id])).toEqual([
      ["B-EAST", east?.parcel_id],
      ["B-STRADDLE", west?.parcel_id],
    ]);
    expect(stored[1]?.parcel_share).toBeCloseTo(0.7, 2);
  });

  it("a building import whose thread fails fails whole, and leaves no building and no dataset", async () => {
    const origin: LonLat = [-97.1, 40];
    const buildings = fixture(
      "thread-fails.ndjson",
      ndjson([featureOf(rect(origin, 0.3, 0.4, 1.3, 0.6), { BID: "B-1" })]),
    );
    // The thread cannot open its database (a folder that does not exist).
    const threads = { databaseUrl: `sqlite:${join(folder, "missing", "lotline.db")}`, count: 1 };
    await expect(
      importFile(testDatabase.database, { kind: "buildings", file: buildings, name: "Thread fails", threads }),
    ).rejects.toThrow(/import thread/);
    expect(await buildingsOf("Thread fails")).toEqual([]);
    const dataset = await testDatabase.database.db
      .selectFrom("datasets")
      .select("dataset_id")
      .where("name", "=", "Thread fails")
      .executeTakeFirst();
    expect(dataset).toBeUndefined();
  });

  it("importing parcels after the buildings assigns them, and moving a lot line reassigns them", async () => {
    const origin: LonLat = [-96, 40];
    const buildings = fixture(
      "early-buildings.geojson",
      collection([featureOf(rect(origin, 0.3, 0.4, 1.3, 0.6), { BID: "EARLY" })]),
    );
    await importJson(["buildings", buildings, "--id-field", "BID", "--name", "Early buildings"]);
    expect((await buildingsOf("Early buildings")).map((row) => row.parcel_id)).toEqual([null]);

    const lots = (line: number) =>
      collection([
        featureOf(rect(origin, 0, 0, line, 1), { APN: "30-1" }),
        featureOf(rect(origin, line, 0, 2, 1), { APN: "30-2" }),
      ]);
    await importJson(["parcels", fixture("late-lots.geojson", lots(1)), "--id-field", "APN", "--name", "Late lots"]);
    const parcelId = async (id: string) =>
      (await parcelsOf("Late lots")).find((row) => row.source_id === id)?.parcel_id;
    let [building] = await buildingsOf("Early buildings");
    expect(building?.parcel_id).toBe(await parcelId("30-1"));
    expect(building?.parcel_share).toBeCloseTo(0.7, 2);

    // The lot line moves west: now 80 % of the building stands on 30-2.
    const moved = await importJson([
      "parcels",
      fixture("late-lots-moved.geojson", lots(0.5)),
      "--id-field",
      "APN",
      "--name",
      "Late lots",
    ]);
    expect(moved).toMatchObject({ read: 2, imported: 0, updated: 2 });
    [building] = await buildingsOf("Early buildings");
    expect(building?.parcel_id).toBe(await parcelId("30-2"));
    expect(building?.parcel_share).toBeCloseTo(0.8, 2);
  });
});

describe("addresses", () => {
  it("located by --lon-column/--lat-column get the parcel containing their point", async () => {
    const origin: LonLat = [-95, 40];
    await importJson([
      "parcels",
      fixture("address-lots.geojson", collection([featureOf(rect(origin, 0, 0, 1, 1), { APN: "ELM-12" })])),
      "--id-field",
      "APN",
      "--name",
      "Address lots",
    ]);
    const [inside, outside, half] = [point(origin, 0.5, 0.5), point(origin, 5, 5), point(origin, 0.2, 0.8)];
    const summary = await importJson([
      ...pointAddresses("points.csv", [
        `12 Elm Street,${inside[0]},${inside[1]}`,
        `99 Nowhere Road,${outside[0]},${outside[1]}`,
        `"12 1/2 Elm St",${half[0]},${half[1]}`,
      ]),
      "--city",
      "Springfield",
      "--state",
      "IL",
      "--name",
      "Point addresses",
    ]);
    expect(summary).toMatchObject({ read: 3, imported: 3, rejected: 0 });

    const [lot] = await parcelsOf("Address lots");
    const rows = await db()
      .selectFrom("addresses")
      .selectAll()
      .where("dataset_id", "=", (await datasetRow("addresses", "Point addresses"))?.dataset_id ?? -1)
      .execute();
    const written = rows.map((row) => ({
      line: addressLine(row),
      parcel_id: row.parcel_id,
      lon: row.lon,
      lat: row.lat,
    }));
    expect(written.sort((a, b) => a.line.localeCompare(b.line))).toEqual([
      { line: "12 1/2 ELM ST, SPRINGFIELD, IL", parcel_id: lot?.parcel_id, lon: half[0], lat: half[1] },
      { line: "12 ELM ST, SPRINGFIELD, IL", parcel_id: lot?.parcel_id, lon: inside[0], lat: inside[1] },
      { line: "99 NOWHERE RD, SPRINGFIELD, IL", parcel_id: null, lon: outside[0], lat: outside[1] },
    ]);

    // Both the whole and the fractional house number are found again.
    const [whole] = await locateAddress(testDatabase.database, "12 Elm St, Springfield, IL");
    expect(whole).toMatchObject({ address: "12 ELM ST, SPRINGFIELD, IL", score: 1, parcel_id: lot?.parcel_id });
    const [fraction] = await locateAddress(testDatabase.database, "12 1/2 Elm St, Springfield, IL");
    expect(fraction).toMatchObject({ address: "12 1/2 ELM ST, SPRINGFIELD, IL", score: 1 });
    const typed = await searchAddresses(testDatabase.database, "12 1/2 el");
    expect(typed.map((candidate) => candidate.address)).toContain("12 1/2 ELM ST, SPRINGFIELD, IL");

    // Off the lot, the nearest address within 50 m: one without a parcel 22 m away, one on the lot 42 m away.
    const addressAt = async (at: LonLat) => (await reverseLocate(testDatabase.database, at)).address?.address;
    expect(await addressAt(point(origin, 5, 5.2))).toBe("99 NOWHERE RD, SPRINGFIELD, IL");
    expect(await addressAt(point(origin, 0.5, 1.1))).toBe("12 1/2 ELM ST, SPRINGFIELD, IL");
    expect(await addressAt(point(origin, 0.5, 1.3))).toBeUndefined();
  });

  it("an OpenAddresses file, each address in parts, is stored as the lines a person writes, on and off threads", async () => {
    const origin: LonLat = [-91, 40];
    await importJson([
      "parcels",
      fixture("oa-lots.geojson", collection([featureOf(rect(origin, 0, 0, 1, 1), { APN: "OA-1" })])),
      "--id-field",
      "APN",
      "--name",
      "OA lots",
    ]);
    const [inside, outside] = [point(origin, 0.5, 0.5), point(origin, 3, 3)];
    const csv = fixture(
      "statewide-addresses-state.csv",
      [
        "LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,ID,HASH",
        `${inside[0]},${inside[1]},123,Main Street,4B,Springfield,,IL,62701,,a1`,
        `${inside[0]},${inside[1]},123,Main Street,,Springfield,,IL,62701,,a2`,
        `${outside[0]},${outside[1]},7 1/2,N Oak Ave,,Chatham,,IL,,,a3`,
        `${outside[0]},${outside[1]},,,,Springfield,,IL,62701,,a4`,
      ].join("\n"),
    );
    const parts = [
      "--address-column",
      "NUMBER,STREET,UNIT",
      "--city-column",
      "CITY",
      "--state-column",
      "REGION",
      "--postcode-column",
      "POSTCODE",
      "--lon-column",
      "LON",
      "--lat-column",
      "LAT",
    ];
    const linesOf = async (name: string) => {
      const rows = await db()
        .selectFrom("addresses")
        .selectAll()
        .where("dataset_id", "=", (await datasetRow("addresses", name))?.dataset_id ?? -1)
        .execute();
      return rows
        .map((row) => [addressLine(row), row.parcel_id])
        .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    };
    const summary = await importJson(["addresses", csv, ...parts, "--max-rejected", "50"]);
    expect(summary).toMatchObject({ read: 4, imported: 3, rejected: 1 });
    expect(summary.rejections).toEqual([
      { number: 5, reason: "missing_address", detail: "no value in NUMBER,STREET,UNIT" },
    ]);
    const [lot] = await parcelsOf("OA lots");
    expect(await linesOf("statewide-addresses-state")).toEqual([
      ["123 MAIN ST # 4B, SPRINGFIELD, IL 62701", lot?.parcel_id],
      ["123 MAIN ST, SPRINGFIELD, IL 62701", lot?.parcel_id],
      ["7 1/2 N OAK AVE, CHATHAM, IL", null],
    ]);

    // Located on this thread (the command line locates on import threads), the same rows.
    await importFile(testDatabase.database, {
      kind: "addresses",
      file: csv,
      name: "OA without threads",
      addressColumn: "NUMBER,STREET,UNIT",
      cityColumn: "CITY",
      stateColumn: "REGION",
      postcodeColumn: "POSTCODE",
      read: { lonColumn: "LON", latColumn: "LAT" },
      rules: { maxRejected: 0.5, replace: "statewide-addresses-state" },
    });
    expect(await linesOf("OA without threads")).toEqual([
      ["123 MAIN ST # 4B, SPRINGFIELD, IL 62701", lot?.parcel_id],
      ["123 MAIN ST, SPRINGFIELD, IL 62701", lot?.parcel_id],
      ["7 1/2 N OAK AVE, CHATHAM, IL", null],
    ]);

    // A named column the file lacks refuses the import, naming it.
    const run = await lotline([
      "import",
      "addresses",
      csv,
      ...parts.slice(0, 2),
      "--city-column",
      "TOWN",
      ...parts.slice(8),
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/TOWN/);
  });

  it("one street and number in many towns, as on a state's file: each is its own address, found in its own town", async () => {
    const origin: LonLat = [-97, 41];
    // More towns than a lookup scores rows at one number, so that a limit could leave the one asked for out.
    const towns = Array.from({ length: 25 }, (_, i) => `Hamlet ${String.fromCharCode(65 + i)}`);
    const lines = towns.map((town, i) => {
      const [x, y] = point(origin, i * 10, 0);
      return `"12 Main St, ${town}, KS",${x},${y}`;
    });
    const state = pointAddresses("state.csv", lines);
    expect(await importJson([...state, "--name", "State"])).toMatchObject({ read: 25, imported: 25 });
    expect(await importJson([...state, "--name", "State"])).toMatchObject({ read: 25, updated: 25 });
    // Another dataset holding the same addresses at the same places, and one more, repeats those 25.
    const [x, y] = point(origin, 0, 5);
    const more = pointAddresses("state-more.csv", [...lines, `"14 Main St, Hamlet A, KS",${x},${y}`]);
    expect(await importJson([...more, "--name", "State again", "--max-rejected", "100"])).toMatchObject({
      read: 26,
      imported: 1,
      rejected_by_reason: { [DUPLICATE_REASON]: 25 },
    });

    for (const town of [towns[0], towns[24]]) {
      const [found] = await locateAddress(testDatabase.database, `12 Main Street, ${town}, KS`);
      expect(found).toMatchObject({ address: `12 MAIN ST, ${town?.toUpperCase()}, KS`, score: 1 });
    }
  });

  it("addresses located on import threads are the addresses located on the main thread", async () => {
    const origin: LonLat = [-97.2, 40];
    const lots = collection([
      featureOf(rect(origin, 0, 0, 1, 1), { APN: "THR-1" }),
      featureOf(rect(origin, 1, 0, 2, 1), { APN: "THR-2" }),
    ]);
    await importJson(["parcels", fixture("thread-lots.geojson", lots), "--id-field", "APN", "--name", "Thread lots"]);
    const file = fixture(
      "thread-addresses.csv",
      [
        "address,lot",
        '"1 Oak Rd, Elm, KS",THR-1',
        '"2 Oak Rd Apt 3, Elm, KS",THR-2',
        '"2 Oak Road #3, Elm, KS",THR-2',
        '"3 Oak Rd, Elm, KS",THR-9',
      ].join("\n"),
    );
    const options = {
      file,
      addressColumn: "address",
      joinParcel: "lot",
      name: "Thread addresses",
      rules: { maxRejected: 1 },
    };
    const stored = async () =>
      (
        await db()
          .selectFrom("addresses")
          .innerJoin("datasets", "datasets.dataset_id", "addresses.dataset_id")
          .selectAll("addresses")
          .where("datasets.name", "=", "Thread addresses")
          .orderBy("address_id")
          .execute()
      ).map((row) => ({ ...row, line: addressLine(row), import_id: undefined, updated_at: undefined }));

    const threads = { databaseUrl: testDatabase.url, count: 2 };
    const threaded = await importFile(testDatabase.database, { ...options, kind: "addresses", threads });
    expect(threaded).toMatchObject({ read: 4, imported: 2, merged: 1, rejected: 1 });
    const before = await stored();
    expect(before.map((row) => row.line)).toEqual(["1 OAK RD, ELM, KS", "2 OAK RD APT 3, ELM, KS"]);
    const lotIds = new Map((await parcelsOf("Thread lots")).map((row) => [row.source_id, row.parcel_id]));
    expect(before.map((row) => row.parcel_id)).toEqual([lotIds.get("THR-1"), lotIds.get("THR-2")]);

    // Here, on this thread: every address is found as the same one, and stays where it was.
    const here = await importFile(testDatabase.database, { ...options, kind: "addresses" });
    expect(here).toMatchObject({ read: 4, imported: 0, updated: 2, merged: 1, rejected: 1 });
    expect(await stored()).toEqual(before);
  });

  it("an address stored without its town, imported again with it and without it in one file, stays one row", async () => {
    const importing = (name: string, rows: string[]) => [...pointAddresses(name, rows), "--name", "Townless"];
    const [x, y] = point([-97, 41.5], 0, 0);
    expect(await importJson(importing("townless.csv", [`5 Birch Rd,${x},${y}`]))).toMatchObject({ imported: 1 });
    // The fuller form takes the stored row; the bare form that follows is that same address.
    const again = await importJson(
      importing("townless-again.csv", [`"5 Birch Rd, Elmwood, KS",${x},${y}`, `5 Birch Rd,${x},${y}`]),
    );
    expect(again).toMatchObject({ read: 2, imported: 0, updated: 1, merged: 1 });
    const rows = await testDatabase.database.db
      .selectFrom("addresses")
      .innerJoin("datasets", "datasets.dataset_id", "addresses.dataset_id")
      .selectAll("addresses")
      .where("datasets.name", "=", "Townless")
      .execute();
    expect(rows.map((row) => addressLine(row))).toEqual(["5 BIRCH RD, ELMWOOD, KS"]);
  });

  it("addresses that all name their town find the stored row of their own town and the one without a town", async () => {
    const importing = (name: string, rows: string[]) => [...pointAddresses(name, rows), "--name", "Towns"];
    const [x, y] = point([-97.5, 41.5], 0, 0);
    const [farX, farY] = point([-97.5, 42.5], 0, 0);
    expect(await importJson(importing("towns.csv", [`9 Ash Ct,${x},${y}`]))).toMatchObject({ imported: 1 });
    const withTowns = [`"9 Ash Ct, Elmwood, KS",${x},${y}`, `"9 Ash Ct, Oakdale, KS",${farX},${farY}`];
    // Elmwood's row is the stored one without a town; Oakdale's is an address of its own.
    expect(await importJson(importing("towns-named.csv", withTowns))).toMatchObject({ imported: 1, updated: 1 });
    // Again: each finds its own town's row, and nothing is added.
    expect(await importJson(importing("towns-again.csv", withTowns))).toMatchObject({ imported: 0, updated: 2 });
    const rows = await testDatabase.database.db
      .selectFrom("addresses")
      .innerJoin("datasets", "datasets.dataset_id", "addresses.dataset_id")
      .selectAll("addresses")
      .where("datasets.name", "=", "Towns")
      .orderBy("address_id")
      .execute();
    expect(rows.map((row) => addressLine(row))).toEqual(["9 ASH CT, ELMWOOD, KS", "9 ASH CT, OAKDALE, KS"]);
  });

  it("a first import of a namespace merges an address repeated batches apart, with or without its town", async () => {
    // A database of its own: with no address stored before, an import seeks only what it may have written itself.
    const fresh = await createTestDatabase();
    try {
      const [x, y] = point([-98, 41.5], 0, 0);
      const [farX, farY] = point([-98, 42.5], 0, 0);
      const rows = Array.from({ length: 1200 }, (_, i) => `"${i + 1} Maple St, Elmwood, KS",${x},${y}`);
      rows.push(
        `"5 Maple St, Elmwood, KS",${x},${y}`,
        `7 Maple St,${x},${y}`,
        `"9 Maple St, Oakdale, KS",${farX},${farY}`,
      );
      const run = await runCli(["import", ...pointAddresses("maple.csv", rows), "--name", "Maple", "--json"], {
        LOTLINE_DATABASE_URL: fresh.url,
        LOTLINE_PUBLIC_URL: "http://lotline.test",
      });
      expect(run.stderr).toBe("");
      // Rows 1,203 and 1,204 are in the third batch; the rows they repeat, in the first.
      expect(JSON.parse(run.stdout)).toMatchObject({ read: 1203, imported: 1201, merged: 2, rejected: 0 });
      const stored = await fresh.database.db
        .selectFrom("addresses")
        .selectAll()
        .where("number", "in", ["5", "7", "9"])
        .execute();
      expect(stored.map((row) => addressLine(row)).sort()).toEqual([
        "5 MAPLE ST, ELMWOOD, KS",
        "7 MAPLE ST, ELMWOOD, KS",
        "9 MAPLE ST, ELMWOOD, KS",
        "9 MAPLE ST, OAKDALE, KS",
      ]);
    } finally {
      await fresh.destroy();
    }
  });

  it("a row that is no street address is rejected as unparseable_address with its line number", async () => {
    const csv = fixture(
      "unparseable.csv",
      ["address,x,y", "7 Oak Ave,-94.5,40.5", "PO Box 77,-94.5,40.5", "1234,-94.5,40.5", ",-94.5,40.5"].join("\n"),
    );
    const summary = await importJson([
      "addresses",
      csv,
      "--address-column",
      "address",
      "--lon-column",
      "x",
      "--lat-column",
      "y",
      "--name",
      "Unparseable",
      "--max-rejected",
      "100",
    ]);
    expect(summary).toMatchObject({ read: 4, imported: 1, rejected: 3 });
    expect(summary.rejections).toEqual([
      { number: 3, reason: "unparseable_address", detail: "PO Box 77" },
      { number: 4, reason: "unparseable_address", detail: "1234" },
      { number: 5, reason: "missing_address", detail: expect.stringContaining("address") },
    ]);
  });
});

describe("wrong command lines exit 2 with one line on stderr and change nothing", () => {
  async function expectUsageError(argv: string[], mentions: string) {
    const run = await lotline(argv);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^lotline: .+\n$/);
    expect(run.stderr).toContain(mentions);
  }

  it("--join-parcel together with --lon-column", async () => {
    const csv = fixture("both.csv", "address,ml,x,y\n1 Main St,1-1,-93,40\n");
    await expectUsageError(
      [
        "import",
        "addresses",
        csv,
        "--address-column",
        "address",
        "--join-parcel",
        "ml",
        "--lon-column",
        "x",
        "--lat-column",
        "y",
        "--name",
        "Both",
        "--json",
      ],
      "join-parcel",
    );
    expect(await datasetRow("addresses", "Both")).toBeUndefined();
  });

  it("parcels without --id-field", async () => {
    const path = fixture("no-id-field.geojson", collection([featureOf(rect([-93, 41], 0, 0, 1, 1), { APN: "X" })]));
    await expectUsageError(["import", "parcels", path, "--name", "No id field", "--json"], "--id-field");
    expect(await datasetRow("parcels", "No id field")).toBeUndefined();
  });

  it("a file that does not exist", async () => {
    const path = join(folder, "nowhere.geojson");
    await expectUsageError(["import", "layer", path, "--name", "Nowhere", "--json"], path);
    expect(await datasetRow("layer", "Nowhere")).toBeUndefined();
  });

  it("several files, one of them missing, or without --name", async () => {
    const there = fixture("there.geojson", collection([featureOf({ type: "Point", coordinates: [-93, 41] }, {})]));
    const missing = join(folder, "missing.geojson");
    await expectUsageError(["import", "layer", there, missing, "--name", "Partly", "--json"], missing);
    expect(await datasetRow("layer", "Partly")).toBeUndefined();
    await expectUsageError(["import", "layer", there, there, "--json"], "--name");
  });
});

describe("layers", () => {
  it("a layer published county by county is imported from all its files into one dataset, and again from fewer", async () => {
    const origin: LonLat = [-95, 40];
    const zone = (x: number, properties: Props) => featureOf(rect(origin, x, 0, x + 1, 1), properties);
    const counties = [
      fixture("flood-19001.geojson", collection([zone(0, { FLD_ZONE: "AE" }), zone(1, { FLD_ZONE: "X" })])),
      fixture(
        "flood-19003.geojsonl",
        ndjson([zone(2, { FLD_ZONE: "AE" }), featureOf(null, {}), zone(3, { FLD_ZONE: "A" })]),
      ),
    ];
    // One record in five is rejected: more than an import allows by default.
    const named = ["--name", "Flood zones", "--max-rejected", "50"];
    const both = await importJson(["layer", ...counties, ...named]);
    expect(both).toMatchObject({ read: 5, imported: 4, rejected: 1 });
    // The rejected record is named by its file and its line there.
    expect(both.rejections).toEqual([expect.objectContaining({ file: "flood-19003.geojsonl", number: 2 })]);
    const dataset = await datasetRow("layer", "Flood zones");
    const stored = async () =>
      db()
        .selectFrom("layer_features")
        .select(["source_id"])
        .where("dataset_id", "=", dataset?.dataset_id as number)
        .orderBy("source_id")
        .execute();
    // Features without an id field are named by their number, the second file's as 2:n.
    expect((await stored()).map((row) => row.source_id)).toEqual(["#1", "#2", "#2:1", "#2:3"]);

    const again = await importJson(["layer", ...counties, ...named]);
    expect(again).toMatchObject({ read: 5, imported: 0, rejected: 1 });
    await importJson(["layer", counties[1] as string, ...named]);
    expect((await stored()).map((row) => row.source_id)).toEqual(["#1", "#3"]);

    const text = await lotline(["import", "layer", ...counties, ...named]);
    expect(text.stdout).toContain("flood-19003.geojsonl record 2: ");
  });

  it("a layer imported again from a file with fewer features ends with only the new features", async () => {
    const origin: LonLat = [-92, 40];
    const hydrant = (id: string, x: number, extra: Props = {}) =>
      featureOf({ type: "Point", coordinates: point(origin, x, 0) }, { HID: id, ...extra });
    const first = await importJson([
      "layer",
      fixture("hydrants-2020.geojson", collection([hydrant("H1", 0), hydrant("H2", 1), hydrant("H3", 2)])),
      "--id-field",
      "HID",
      "--name",
      "Hydrants",
    ]);
    expect(first).toMatchObject({ read: 3, imported: 3, rejected: 0 });

    const second = await importJson([
      "layer",
      // Attributes named differently from one record to the next, as many of them each time.
      fixture(
        "hydrants-2024.ndjson",
        ndjson([hydrant("H2", 1.5, { FLOW: "high" }), hydrant("H4", 3, { COLOR: "red" })]),
      ),
      "--id-field",
      "HID",
      "--name",
      "Hydrants",
    ]);
    expect(second).toMatchObject({ read: 2, imported: 1, updated: 1, rejected: 0 });

    const dataset = await datasetRow("layer", "Hydrants");
    const features = await db()
      .selectFrom("layer_features")
      .leftJoin("attribute_keys", "attribute_keys.keys_id", "layer_features.attribute_keys_id")
      .select(["source_id", "geometry", "attribute_keys.keys", "attributes"])
      .where("dataset_id", "=", dataset?.dataset_id ?? -1)
      .orderBy("source_id")
      .execute();
    expect(features.map((row) => row.source_id)).toEqual(["H2", "H4"]);
    expect(decodeGeometry(features[0]?.geometry ?? new Uint8Array())).toEqual({
      type: "Point",
      coordinates: point(origin, 1.5, 0),
    });
    expect(attributesFrom(features[0]?.keys ?? null, features[0]?.attributes ?? "[]")).toEqual({
      HID: "H2",
      FLOW: "high",
    });
    expect(attributesFrom(features[1]?.keys ?? null, features[1]?.attributes ?? "[]")).toEqual({
      HID: "H4",
      COLOR: "red",
    });
  });
  it("a zone cut into parts keeps exactly its own parts when it grows, shrinks or stays as it was", async () => {
    const origin: LonLat = [-92.5, 40];
    // A circle of `positions` positions and radius `r` map units around (x, 0): cut into parts beyond 256.
    const zone = (id: string, x: number, r: number, positions: number) => {
      const ring = Array.from({ length: positions }, (_, i) => {
        const angle = (2 * Math.PI * i) / positions;
        return point(origin, x + r * Math.cos(angle), r * Math.sin(angle));
      });
      return featureOf({ type: "Polygon", coordinates: [[...ring, ring[0] as LonLat]] }, { ZONE: id });
    };
    const importZones = (name: string, zones: object[]) =>
      importJson(["layer", fixture(name, ndjson(zones)), "--id-field", "ZONE", "--name", "Flood zones"]);
    const partsByZone = async () => {
      const dataset = await datasetRow("layer", "Flood zones");
      const features = await db()
        .selectFrom("layer_features")
        .select(["feature_id", "source_id", "part_count", "geometry"])
        .where("dataset_id", "=", dataset?.dataset_id ?? -1)
        .execute();
      const parts = await db()
        .selectFrom("layer_parts")
        .select(["feature_id", "geometry"])
        .where(
          "feature_id",
          "in",
          features.map((feature) => feature.feature_id),
        )
        .execute();
      return Object.fromEntries(
        features.map((feature) => {
          const own = parts.filter((part) => part.feature_id === feature.feature_id);
          expect(own, feature.source_id).toHaveLength(feature.part_count);
          const area = (bytes: Uint8Array) => geodesicArea(decodeGeometry(bytes) as Area);
          const covered = own.reduce((sum, part) => sum + area(part.geometry), 0);
          if (own.length > 0) expect(covered / area(feature.geometry), feature.source_id).toBeCloseTo(1, 6);
          return [feature.source_id, own.length];
        }),
      );
    };

    await importZones("zones-1.ndjson", [zone("Z1", 0, 1, 1000), zone("Z2", 3, 1, 50), zone("Z3", 6, 1, 1000)]);
    const first = await partsByZone();
    expect(first.Z1).toBeGreaterThan(3);
    expect(first.Z2).toBe(0);

    // Z1 shrinks to a few positions, Z2 grows to many, Z3 stays, Z4 is new and large.
    const again = await importZones("zones-2.ndjson", [
      zone("Z1", 0, 1, 40),
      zone("Z2", 3, 1.2, 900),
      zone("Z3", 6, 1, 1000),
      zone("Z4", 9, 1, 700),
    ]);
    expect(again).toMatchObject({ read: 4, imported: 1, updated: 2, unchanged: 1 });
    const second = await partsByZone();
    expect(second).toMatchObject({ Z1: 0, Z3: first.Z3 });
    expect(second.Z2).toBeGreaterThan(3);
    expect(second.Z4).toBeGreaterThan(3);
  });
});
