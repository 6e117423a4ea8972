import type { ProductMatrix } from "@lotline/contract";
import { OrderRequest } from "@lotline/contract";
import { Compile } from "typebox/compile";
import { InvalidInputError } from "../errors.js";
import { checkOrder, type OrderRules } from "../orders/order-rules.js";
import { InvalidCustomFieldsError } from "../tenancy/custom-fields-error.js";
import type { RowFault } from "./input-row.js";

const orderSchema = Compile(OrderRequest);

/** The longest field name a rejection echoes. */
const FIELD_MAX = 100;

/** The field each refusal of a single order is about, to name it beside the row's reason. */
const FIELD_OF_CODE: Readonly<Record<string, string>> = {
  address_or_location_required: "address",
  invalid_renewal_date: "renewal_date",
  callback_url_not_registered: "callback_url",
  product_matrix_not_found: "product_matrix_id",
  boundary_invalid: "parcel_boundary",
  boundary_self_intersecting: "parcel_boundary",
  boundary_too_small: "parcel_boundary",
  boundary_too_large: "parcel_boundary",
  geometry_limit_exceeded: "parcel_boundary",
  geometry_too_complex: "parcel_boundary",
};

/** The stable reason a schema keyword's refusal gives a row. */
const REASON_OF_KEYWORD: Readonly<Record<string, string>> = {
  type: "invalid_type",
  minimum: "out_of_range",
  maximum: "out_of_range",
  exclusiveMinimum: "out_of_range",
  exclusiveMaximum: "out_of_range",
  format: "invalid_format",
  minLength: "invalid_text",
  maxLength: "invalid_text",
  pattern: "invalid_text",
  boolean: "unknown_field",
  additionalProperties: "unknown_field",
  required: "required",
};

export type CheckedRow = { request: OrderRequest; matrix: ProductMatrix } | { fault: RowFault };

/**
 * Checks one row exactly as a single order is checked — the `POST /v1/orders` schema (nothing coerced), then
 * {@link checkOrder} — and answers the order with its matrix, or the fault that rejects the row.
 */
export async function checkRow(rules: OrderRules, candidate: unknown): Promise<CheckedRow> {
  const schemaFault = firstSchemaFault(candidate);
  if (schemaFault) return { fault: schemaFault };
  const request = candidate as OrderRequest;
  try {
    return { request, matrix: await checkOrder(async () => rules, request) };
  } catch (error) {
    if (error instanceof InvalidCustomFieldsError) {
      const field = error.faults[0]?.field;
      return { fault: { ...(field ? { field } : {}), reason: error.code } };
    }
    if (error instanceof InvalidInputError) {
      const field = FIELD_OF_CODE[error.code];
      return { fault: { ...(field ? { field } : {}), reason: error.code } };
    }
    throw error;
  }
}

function firstSchemaFault(candidate: unknown): RowFault | undefined {
  if (orderSchema.Check(candidate)) return undefined;
  for (const error of orderSchema.Errors(candidate)) {
    // A client's unknown member comes back named, but no longer than a real field's name needs.
    const field = error.instancePath
      .split("/")
      .filter((part) => part !== "")
      .join(".")
      .slice(0, FIELD_MAX);
    // A date that is no calendar day fails the schema's format; name it as a single order's check does.
    const reason =
      field === "renewal_date" && error.keyword === "format"
        ? "invalid_renewal_date"
        : (REASON_OF_KEYWORD[error.keyword] ?? "invalid_value");
    return { ...(field ? { field } : {}), reason };
  }
  return { reason: "invalid_value" };
}
