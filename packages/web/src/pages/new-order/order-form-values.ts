import type { CustomField, PageSession } from "@lotline/contract";
import type { OrderParams } from "./order-params";

/** What the order form holds, as typed (text), before it is checked. */
export interface OrderFormValues {
  product_matrix_id: string;
  external_id: string;
  secondary_external_id: string;
  insured_name: string;
  renewal_date: string;
  premium_amount: string;
  /** The organization's custom fields by key: text for text, number and date fields, a boolean for checkboxes. */
  custom_fields: Record<string, string | boolean>;
}

/** The form as it opens: prefilled from the page's parameters, the default product matrix chosen. */
export function initialOrderForm(session: PageSession, params: OrderParams): OrderFormValues {
  const matrix = session.product_matrices.find((candidate) => candidate.is_default) ?? session.product_matrices[0];
  return {
    product_matrix_id: matrix?.product_matrix_id ?? "",
    external_id: params.external_id,
    secondary_external_id: params.secondary_external_id,
    insured_name: params.insured_name,
    renewal_date: "",
    premium_amount: "",
    custom_fields: Object.fromEntries(session.custom_fields.map((field) => [field.key, emptyValue(field)])),
  };
}

function emptyValue(field: CustomField): string | boolean {
  return field.type === "boolean" ? false : "";
}
