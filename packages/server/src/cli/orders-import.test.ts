import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { OrderBatch } from "@lotline/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importDemoNeighbourhood } from "../geo/import/import-demo-neighbourhood.js";
import { addressLine } from "../geo/store/address-line.js";
import { runCli } from "../test/run-cli.js";
import { accessTokenFor, createTenant, createTestApp, type TestApp, type TestTenant } from "../test/test-app.js";

describe("lotline orders import FILE.csv --org ORG_ID", () => {
  let test: TestApp;
  let tenant: TestTenant;
  let folder: string;
  let addresses: string[];

  const lotline = (...argv: string[]) =>
    runCli(argv, { LOTLINE_DATABASE_URL: test.testDatabase.url, LOTLINE_PUBLIC_URL: test.url });

  beforeAll(async () => {
    test = await createTestApp({}, { listen: true });
    await importDemoNeighbourhood(test.services.database);
    tenant = await createTenant(test.services);
    folder = mkdtempSync(join(tmpdir(), "lotline-orders-import-"));
    const rows = await test.services.db
      .selectFrom("addresses")
      .selectAll()
      .where("unit", "is", null)
      .orderBy("address_id")
      .limit(2)
      .execute();
    addresses = rows.map((row) => addressLine(row));
  });
  afterAll(async () => {
    await test?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it("places the spreadsheet as one batch, good rows as orders and a bad row listed, readable through the API", async () => {
    const file = join(folder, "renewals.csv");
    writeFileSync(
      file,
      [
        "address,external_id,premium_amount,broker",
        `"${addresses[0]}",R-1,1200,Smith`,
        `"${addresses[1]}",R-2,950.5,Jones`,
        `"${addresses[0]}",R-3,a lot,Smith`,
      ].join("\n"),
    );
    const run = await lotline("orders", "import", file, "--org", tenant.orgId, "--name", "Renewals", "--json");
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const placed = JSON.parse(run.stdout);
    expect(placed).toMatchObject({
      name: "Renewals",
      rows: 3,
      accepted: 2,
      rejected: 1,
      ignored_columns: ["broker"],
      rejections: [{ row: 3, field: "premium_amount" }],
    });
    const token = await accessTokenFor(test, tenant);
    const response = await fetch(`${test.url}/v1/order-batches/${placed.batch_id}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as OrderBatch).accepted).toBe(2);

    const text = await lotline("orders", "import", file, "--org", tenant.orgId);
    expect(text.stdout).toMatch(
      /^Placed batch bat_\S+: 3 rows, 2 accepted, 1 rejected\.\n {2}row 3: \S+ \(premium_amount\)/,
    );
  });

  it("refuses a missing file or an unknown organization with one line and exit 2", async () => {
    const missing = await lotline("orders", "import", join(folder, "nope.csv"), "--org", tenant.orgId);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/nope\.csv: no such file/);
    const file = join(folder, "one.csv");
    writeFileSync(file, `address\n"${addresses[0]}"\n`);
    const unknown = await lotline("orders", "import", file, "--org", "org_nobody");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/no organization org_nobody/);
  });
});
