import { PRODUCT_NAMES } from "@lotline/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DomainError } from "../errors.js";
import { runCli } from "../test/run-cli.js";
import { accessTokenFor, createTenant, createTestApp, type TestApp } from "../test/test-app.js";
import {
  createProductMatrix,
  DEFAULT_MATRIX_NAME,
  listProductMatrices,
  resolveProductMatrix,
} from "./product-matrices.js";

describe("product matrices", () => {
  let test: TestApp;
  beforeAll(async () => {
    test = await createTestApp();
  });
  afterAll(() => test.close());

  const failure = async (work: () => Promise<unknown>) => {
    try {
      await work();
    } catch (error) {
      if (error instanceof DomainError) return error.code;
      throw error;
    }
    throw new Error("expected a failure");
  };

  it("gives every new organization a default matrix that runs every product", async () => {
    const { orgId } = await createTenant(test.services);
    const [matrix, ...others] = await listProductMatrices(test.services.db, orgId);
    expect(others).toEqual([]);
    expect(matrix).toMatchObject({ name: DEFAULT_MATRIX_NAME, products: [...PRODUCT_NAMES], is_default: true });
    expect(await resolveProductMatrix(test.services.db, orgId, undefined)).toEqual(matrix);
  });

  it("creates named matrices, in the catalogue's order, and can make one the default", async () => {
    const { orgId } = await createTenant(test.services);
    const basic = await createProductMatrix(test.services.db, orgId, "Basic", "structures,parcel,parcel");
    expect(basic.products).toEqual(["parcel", "structures"]);
    expect(basic.is_default).toBe(false);
    const flood = await createProductMatrix(test.services.db, orgId, "Flood", ["third_party"], { isDefault: true });
    expect((await resolveProductMatrix(test.services.db, orgId, undefined)).product_matrix_id).toBe(
      flood.product_matrix_id,
    );
    expect((await listProductMatrices(test.services.db, orgId)).filter((m) => m.is_default)).toHaveLength(1);
  });

  it("refuses unknown products, no products, a taken name, and another organization's matrix", async () => {
    const a = await createTenant(test.services);
    const b = await createTenant(test.services);
    const db = test.services.db;
    expect(await failure(() => createProductMatrix(db, a.orgId, "X", "parcel,roof"))).toBe("unknown_product");
    expect(await failure(() => createProductMatrix(db, a.orgId, "X", " , "))).toBe("no_products");
    await createProductMatrix(db, a.orgId, "Mine", "parcel");
    expect(await failure(() => createProductMatrix(db, a.orgId, "Mine", "parcel"))).toBe("name_taken");
    const [ofA] = await listProductMatrices(db, a.orgId);
    expect(await failure(() => resolveProductMatrix(db, b.orgId, ofA?.product_matrix_id))).toBe(
      "product_matrix_not_found",
    );
  });

  it("lotline product-matrix create --json prints exactly the contract's keys", async () => {
    const { orgId } = await createTenant(test.services);
    const env = { LOTLINE_DATABASE_URL: test.testDatabase.url };
    const { code, stdout } = await runCli(
      ["product-matrix", "create", "--org", orgId, "--name", "Exposure only", "--products", "exposure", "--json"],
      env,
    );
    expect(code).toBe(0);
    const printed = JSON.parse(stdout);
    expect(Object.keys(printed).sort()).toEqual(["name", "product_matrix_id", "products"]);
    expect(printed).toMatchObject({ name: "Exposure only", products: ["exposure"] });
    const bad = await runCli(["product-matrix", "create", "--org", orgId, "--name", "Y", "--products", "roof"], env);
    expect(bad.code).toBe(2);
  });

  it("GET /v1/product-matrices lists the caller's matrices only", async () => {
    const a = await createTenant(test.services);
    const b = await createTenant(test.services);
    await createProductMatrix(test.services.db, b.orgId, "Only B's", "parcel");
    const response = await test.app.inject({
      url: "/v1/product-matrices",
      headers: { authorization: `Bearer ${await accessTokenFor(test, a)}` },
    });
    expect(response.statusCode).toBe(200);
    const { data } = response.json();
    expect(data.map((m: { name: string }) => m.name)).toEqual([DEFAULT_MATRIX_NAME]);
  });
});
