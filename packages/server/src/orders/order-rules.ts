import type { CustomField, OrderRequest, ProductMatrix } from "@lotline/contract";
import type { Kysely } from "kysely";
import { isCalendarDate } from "../calendar-date.js";
import type { Schema } from "../db/schema.js";
import { InvalidInputError } from "../errors.js";
import { listCallbackPrefixes } from "../tenancy/callback-prefixes.js";
import { checkCustomFields, listCustomFields } from "../tenancy/custom-fields.js";
import { listProductMatrices } from "../tenancy/product-matrices.js";
import { callbackUrlAllowed } from "../webhooks/callback-url-allowed.js";
import { checkParcelBoundary } from "./check-parcel-boundary.js";

/** What an organization's orders are checked against, read once: for one order, or for a whole batch of them. */
export interface OrderRules {
  customFields: readonly CustomField[];
  callbackPrefixes: readonly string[];
  matrices: readonly ProductMatrix[];
}

export async function loadOrderRules(db: Kysely<Schema>, orgId: string): Promise<OrderRules> {
  const [customFields, callbackPrefixes, matrices] = await Promise.all([
    listCustomFields(db, orgId),
    listCallbackPrefixes(db, orgId),
    listProductMatrices(db, orgId),
  ]);
  return { customFields, callbackPrefixes, matrices };
}

/**
 * Checks what the schema cannot — one of address and location, a real calendar date, the drawn boundary, a
 * registered callback, the organization's custom fields and matrix — and answers the matrix the order runs.
 * Throws the `InvalidInputError` (or `InvalidCustomFieldsError`) a single order is refused with. The rules are read
 * only once the request's own checks passed.
 */
export async function checkOrder(readRules: () => Promise<OrderRules>, request: OrderRequest): Promise<ProductMatrix> {
  if (request.address === undefined && request.location === undefined) {
    throw new InvalidInputError("address_or_location_required", "an order needs an address or a location");
  }
  if (request.renewal_date !== undefined && !isCalendarDate(request.renewal_date)) {
    throw new InvalidInputError("invalid_renewal_date", `renewal_date ${request.renewal_date} is not a calendar date`);
  }
  // The drawn boundary before anything touches the database, so that a flood of bad ones costs the database nothing;
  // checked on a geometry worker, and refused now rather than failed in processing.
  await checkParcelBoundary(request.parcel_boundary);
  const rules = await readRules();
  if (request.callback_url !== undefined && !callbackUrlAllowed(request.callback_url, rules.callbackPrefixes)) {
    throw new InvalidInputError(
      "callback_url_not_registered",
      "callback_url does not start with one of the organization's registered callback prefixes",
    );
  }
  checkCustomFields(rules.customFields, request.custom_fields);
  return matrixOf(rules, request.product_matrix_id);
}

/** The matrix an order names, or the organization's default; another organization's id is not found. */
function matrixOf(rules: OrderRules, productMatrixId: string | undefined): ProductMatrix {
  const matrix = rules.matrices.find((candidate) =>
    productMatrixId === undefined ? candidate.is_default : candidate.product_matrix_id === productMatrixId,
  );
  if (matrix) return matrix;
  throw new InvalidInputError(
    "product_matrix_not_found",
    productMatrixId === undefined
      ? "the organization has no default product matrix"
      : `no product matrix ${productMatrixId}`,
  );
}
