import type { ProductMatrix, ProductName } from "@lotline/contract";
import { PRODUCT_NAMES } from "@lotline/contract/products";
import type { Kysely } from "kysely";
import type { Schema } from "../db/schema.js";
import { InvalidInputError, NotFoundError } from "../errors.js";
import { requireOrganization } from "./organizations.js";
import { newId } from "./secrets.js";

export const DEFAULT_MATRIX_NAME = "All products";

/** Parses `a,b,…` or a list into known product names, once each, in the catalogue's order. */
export function parseProducts(input: string | readonly string[]): ProductName[] {
  const names = (typeof input === "string" ? input.split(",") : input).map((name) => name.trim()).filter(Boolean);
  const unknown = names.filter((name) => !PRODUCT_NAMES.includes(name as ProductName));
  if (unknown.length > 0) {
    throw new InvalidInputError(
      "unknown_product",
      `unknown product ${unknown.join(", ")}; products are ${PRODUCT_NAMES.join(", ")}`,
    );
  }
  if (names.length === 0) throw new InvalidInputError("no_products", "a product matrix runs at least one product");
  return PRODUCT_NAMES.filter((name) => names.includes(name));
}

/** Creates a named matrix; with `isDefault` it becomes the one orders get when they name none. */
export async function createProductMatrix(
  db: Kysely<Schema>,
  orgId: string,
  name: string,
  products: readonly string[] | string,
  { isDefault = false } = {},
): Promise<ProductMatrix> {
  await requireOrganization(db, orgId);
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > 100)
    throw new InvalidInputError("invalid_name", "a matrix name has 1 to 100 characters");
  const matrix: ProductMatrix = {
    product_matrix_id: newId("pm"),
    name: trimmed,
    products: parseProducts(products),
    is_default: isDefault,
  };
  const taken = await db
    .selectFrom("product_matrices")
    .select("product_matrix_id")
    .where("org_id", "=", orgId)
    .where("name", "=", trimmed)
    .executeTakeFirst();
  if (taken) throw new InvalidInputError("name_taken", `the organization already has a matrix named "${trimmed}"`);
  await db.transaction().execute(async (trx) => {
    if (isDefault)
      await trx.updateTable("product_matrices").set({ is_default: 0 }).where("org_id", "=", orgId).execute();
    await trx
      .insertInto("product_matrices")
      .values({
        product_matrix_id: matrix.product_matrix_id,
        org_id: orgId,
        name: matrix.name,
        products: JSON.stringify(matrix.products),
        is_default: isDefault ? 1 : 0,
        created_at: Date.now(),
      })
      .execute();
  });
  return matrix;
}

/** The default matrix every new organization starts with: it runs every product. */
export function defaultMatrixRow(orgId: string, now: number) {
  return {
    product_matrix_id: newId("pm"),
    org_id: orgId,
    name: DEFAULT_MATRIX_NAME,
    products: JSON.stringify(PRODUCT_NAMES),
    is_default: 1,
    created_at: now,
  };
}

export async function listProductMatrices(db: Kysely<Schema>, orgId: string): Promise<ProductMatrix[]> {
  const rows = await db
    .selectFrom("product_matrices")
    .selectAll()
    .where("org_id", "=", orgId)
    .orderBy("is_default", "desc")
    .orderBy("name")
    .execute();
  return rows.map(toMatrix);
}

/** The matrix an order names, or the organization's default; another organization's id is not found. */
export async function resolveProductMatrix(
  db: Kysely<Schema>,
  orgId: string,
  productMatrixId: string | undefined,
): Promise<ProductMatrix> {
  let query = db.selectFrom("product_matrices").selectAll().where("org_id", "=", orgId);
  query =
    productMatrixId === undefined
      ? query.where("is_default", "=", 1)
      : query.where("product_matrix_id", "=", productMatrixId);
  const row = await query.executeTakeFirst();
  if (!row) {
    throw new NotFoundError(
      "product_matrix_not_found",
      productMatrixId === undefined
        ? "the organization has no default product matrix"
        : `no product matrix ${productMatrixId}`,
    );
  }
  return toMatrix(row);
}

function toMatrix(row: {
  product_matrix_id: string;
  name: string;
  products: string;
  is_default: number;
}): ProductMatrix {
  return {
    product_matrix_id: row.product_matrix_id,
    name: row.name,
    products: JSON.parse(row.products) as ProductName[],
    is_default: row.is_default === 1,
  };
}
