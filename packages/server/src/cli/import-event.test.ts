import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../test/run-cli.js";
import { createTestDatabase, type TestDatabase } from "../test/test-database.js";

describe("lotline import event FILE --name NAME --peril PERIL", () => {
  let test: TestDatabase;
  let folder: string;
  const lotline = (...argv: string[]) =>
    runCli(argv, { LOTLINE_DATABASE_URL: test.url, LOTLINE_PUBLIC_URL: "http://lotline.test" });
  const eventCount = async () =>
    Number(
      (
        await test.database.db
          .selectFrom("events")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  /** A GeoJSON file of the given geometries, each a feature with a wind speed. */
  function eventFile(name: string, geometries: object[]): string {
    const path = join(folder, name);
    const features = geometries.map((geometry, i) => ({ type: "Feature", properties: { wind_mph: 90 + i }, geometry }));
    writeFileSync(path, JSON.stringify({ type: "FeatureCollection", features }));
    return path;
  }
  const square = {
    type: "Polygon",
    coordinates: [
      [
        [-80.2, 25.7],
        [-80.1, 25.7],
        [-80.1, 25.8],
        [-80.2, 25.8],
        [-80.2, 25.7],
      ],
    ],
  };
  const track = {
    type: "LineString",
    coordinates: [
      [-80.2, 25.7],
      [-80.1, 25.8],
    ],
  };

  beforeAll(async () => {
    test = await createTestDatabase();
    folder = mkdtempSync(join(tmpdir(), "lotline-event-cli-"));
  });
  afterAll(async () => {
    await test?.destroy();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it("prints one JSON object with the event id and the counts", async () => {
    const file = eventFile("swath.geojson", [square]);
    const run = await lotline(
      "import",
      "event",
      file,
      "--name",
      "Hurricane Test",
      "--peril",
      "wind",
      "--date",
      "2026-09-10",
      "--intensity-field",
      "wind_mph",
      "--json",
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout.trimEnd().split("\n")).toHaveLength(1);
    expect(JSON.parse(run.stdout)).toMatchObject({
      event_id: expect.stringMatching(/^evt_\w+$/),
      name: "Hurricane Test",
      peril: "wind",
      read: 1,
      imported: 1,
      rejected: 0,
      impacted_properties: 0,
      organizations: 0,
    });
    const stored = await test.database.db.selectFrom("event_areas").select("intensity").execute();
    expect(stored).toEqual([{ intensity: 90 }]);
  });

  it("refuses a wrong peril or date, and a file of no polygons, writing nothing", async () => {
    const before = await eventCount();
    const file = eventFile("ok.geojson", [square]);
    const peril = await lotline("import", "event", file, "--name", "X", "--peril", "tornado");
    expect(peril.code).toBe(2);
    expect(peril.stderr).toContain("--peril must be one of flood, wind, hail, wildfire, earthquake, other");
    const date = await lotline("import", "event", file, "--name", "X", "--peril", "flood", "--date", "2026-02-30");
    expect(date.code).not.toBe(0);
    expect(date.stderr).toContain("YYYY-MM-DD");
    const lines = await lotline(
      "import",
      "event",
      eventFile("track.geojson", [track]),
      "--name",
      "X",
      "--peril",
      "wind",
    );
    expect(lines.code).not.toBe(0);
    expect(lines.stderr).toContain("unsupported_geometry");
    expect(await eventCount()).toBe(before);
  });
});
