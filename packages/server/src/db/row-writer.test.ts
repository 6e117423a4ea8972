import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../test/test-database.js";
import { RowWriter } from "./row-writer.js";

let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(async () => {
  await test?.destroy();
});

/** A parcel row as an import writes it; `n` makes every value its own, text and bytes included. */
function parcelRow(datasetId: number, importId: number, n: number, version: string) {
  return {
    dataset_id: datasetId,
    source_id: `lot "${n}" — ${version}`,
    boundary: Buffer.from([n % 256, 0, 255, n >> 8, 92, 120]),
    attribute_keys_id: n,
    attributes: JSON.stringify([version, "it's", "a\\b", n]),
    area_m2: n + 0.25,
    min_lon: -71.1 + n / 1e6,
    min_lat: 42.3,
    max_lon: -71.09,
    max_lat: 42.31 + n / 1e7,
    import_id: importId,
    updated_at: 1_700_000_000_000 + n,
  };
}

/** A parcels dataset named `name` with an import into it, as an import begins. */
async function datasetWithImport(name: string): Promise<{ dataset_id: number; import_id: number }> {
  const { db } = test.database;
  const { dataset_id } = await db
    .insertInto("datasets")
    .values({
      kind: "parcels",
      name: name,
      provider: null,
      license: null,
      vintage: null,
      geometry_kind: null,
      min_lon: null,
      min_lat: null,
      max_lon: null,
      max_lat: null,
      created_at: 0,
      updated_at: 0,
    })
    .returning("dataset_id")
    .executeTakeFirstOrThrow();
  const { import_id } = await db
    .insertInto("imports")
    .values({ dataset_id, source: "rows.geojson", started_at: 0 })
    .returning("import_id")
    .executeTakeFirstOrThrow();
  return { dataset_id, import_id };
}

describe("RowWriter", () => {
  it("inserts a batch whatever its size, then updates the rows the upsert's key names, in one transaction", async () => {
    const { db } = test.database;
    const { dataset_id, import_id } = await datasetWithImport("Rows");
    // 123 rows cross SQLite's statements of 50 rows, and leave a shorter last one.
    const first = Array.from({ length: 123 }, (_, n) => parcelRow(dataset_id, import_id, n, "first"));
    const again = Array.from({ length: 61 }, (_, n) => parcelRow(dataset_id, import_id, n * 2, "again"));
    for (const row of again) row.source_id = row.source_id.replace("again", "first");
    await db.transaction().execute(async (trx) => {
      const rows = new RowWriter(test.database, trx);
      await rows.insert("parcels", first);
      await rows.insert("parcels", []);
      await rows.insert("parcels", again, ["dataset_id", "source_id"]);
      // Read at once, as an import reads back what it wrote: on PostgreSQL the rows may still be on their way.
      const updated = await trx
        .selectFrom("parcels")
        .select("parcel_id")
        .where("dataset_id", "=", dataset_id)
        .where("attributes", "like", '["again"%')
        .execute();
      expect(updated).toHaveLength(again.length);
      await rows.settle();
    });

    const stored = await db
      .selectFrom("parcels")
      .select(["source_id", "boundary", "attributes", "area_m2", "min_lon", "max_lat", "updated_at"])
      .where("dataset_id", "=", dataset_id)
      .orderBy("parcel_id")
      .execute();
    const expected = first.map((row, n) => {
      const updated = n % 2 === 0 ? again[n / 2] : undefined;
      return {
        source_id: row.source_id,
        boundary: (updated ?? row).boundary,
        attributes: (updated ?? row).attributes,
        area_m2: (updated ?? row).area_m2,
        min_lon: row.min_lon,
        max_lat: (updated ?? row).max_lat,
        updated_at: row.updated_at,
      };
    });
    expect(stored.map((row) => ({ ...row, boundary: Buffer.from(row.boundary) }))).toEqual(expected);
  });

  it("inserts rows' children with the ids their parents are stored under, new or upserted, in the order given", async () => {
    const { db } = test.database;
    const { dataset_id, import_id } = await datasetWithImport("Rows with children");
    const feature = (n: number, version: string) => ({
      dataset_id,
      source_id: `zone "${n}"`,
      geometry: Buffer.from([n % 256, n >> 8, 92]),
      attribute_keys_id: 0,
      attributes: version,
      min_lon: n,
      min_lat: 0,
      max_lon: n + 1,
      max_lat: 1,
      import_id,
      part_count: 2,
    });
    const part = (n: number, k: number) => ({
      parent: `zone "${n}"`,
      row: {
        geometry: Buffer.from([n % 256, n >> 8, k]),
        min_lon: n + k / 10,
        min_lat: 0,
        max_lon: n + 1,
        max_lat: 1,
        import_id,
      },
    });
    // A batch of features as a zoning layer's: every tenth cut into eight parts. Joined to their parents by a hash,
    // the parts of one feature came out of PostgreSQL's join in an order of their own.
    const features = Array.from({ length: 500 }, (_, n) => feature(n, "first"));
    const parts = features.flatMap((_, n) => Array.from({ length: n % 10 === 0 ? 8 : 0 }, (_, k) => part(n, k)));
    // Then ten of them again, whose new parts join their stored rows, and a new one.
    const again = [...Array.from({ length: 10 }, (_, n) => feature(n * 6, "again")), feature(500, "again")];
    const moreParts = again.map((_, n) => part(n === 10 ? 500 : n * 6, 9));
    await db.transaction().execute(async (trx) => {
      const rows = new RowWriter(test.database, trx);
      const parent = { key: "source_id", id: "feature_id" } as const;
      await rows.insertWithChildren("layer_features", features, parent, {
        table: "layer_parts",
        reference: "feature_id",
        rows: parts,
      });
      await rows.insertWithChildren(
        "layer_features",
        again,
        parent,
        { table: "layer_parts", reference: "feature_id", rows: moreParts },
        ["dataset_id", "source_id"],
      );
      await rows.settle();
    });

    const stored = await db
      .selectFrom("layer_parts")
      .innerJoin("layer_features", "layer_features.feature_id", "layer_parts.feature_id")
      .select(["layer_features.source_id", "layer_parts.geometry", "layer_parts.min_lon"])
      .where("layer_features.dataset_id", "=", dataset_id)
      .orderBy("layer_parts.part_id")
      .execute();
    expect(stored.map((row) => ({ ...row, geometry: Buffer.from(row.geometry) }))).toEqual(
      [...parts, ...moreParts].map(({ parent, row }) => ({
        source_id: parent,
        geometry: row.geometry,
        min_lon: row.min_lon,
      })),
    );
    const storedFeatures = await db
      .selectFrom("layer_features")
      .select("attributes")
      .where("dataset_id", "=", dataset_id)
      .execute();
    expect(storedFeatures.filter((row) => row.attributes === "again")).toHaveLength(11);
    expect(storedFeatures).toHaveLength(501);
  });

  it("writes nothing of a batch that fails, and names the failure", async () => {
    const { db } = test.database;
    const { dataset_id, import_id } = await datasetWithImport("Failing rows");
    const before = await db.selectFrom("parcels").select("parcel_id").execute();
    const failed = db.transaction().execute(async (trx) => {
      const rows = new RowWriter(test.database, trx);
      try {
        // Two rows with one key, inserted rather than upserted: the unique index refuses the second.
        await rows.insert("parcels", [
          parcelRow(dataset_id, import_id, 1, "twice"),
          parcelRow(dataset_id, import_id, 1, "twice"),
        ]);
        // On PostgreSQL the insert fails while this runs, and this then fails as the transaction is aborted.
        await trx.selectFrom("parcels").select("parcel_id").execute();
        await rows.settle();
      } catch (error) {
        throw (await rows.failure()) ?? error;
      }
    });
    await expect(failed).rejects.toThrow(/unique/i);
    expect(await db.selectFrom("parcels").select("parcel_id").execute()).toEqual(before);
  });
});
