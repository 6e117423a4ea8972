import type { CustomField, OrderRequest } from "@lotline/contract";
import type { OrderFormValues } from "./order-form-values";

/** The policy fields of an order, as the form gives them. */
export type OrderFields = Pick<
  OrderRequest,
  | "product_matrix_id"
  | "external_id"
  | "secondary_external_id"
  | "insured_name"
  | "renewal_date"
  | "premium_amount"
  | "custom_fields"
>;

/** What is wrong with the form, by field id (`custom_fields.<key>` for a custom field); empty when nothing is. */
export type OrderFormErrors = Record<string, string>;

/** The form's id of a custom field's control. */
export const customFieldId = (key: string) => `custom_fields.${key}`;

/**
 * Checks the form as the order API will (OrderRequest's lengths, a calendar date, a premium of at least 0, the
 * organization's custom fields by type, required ones present) and builds the order's fields. Text is trimmed and
 * empty optional fields are left out, never sent empty.
 *
 * @example validateOrderForm({ ...values, external_id: "  " }, []).fields.external_id // undefined
 */
export function validateOrderForm(
  values: OrderFormValues,
  customFields: readonly CustomField[],
): { errors: OrderFormErrors; fields: OrderFields } {
  const errors: OrderFormErrors = {};
  const fields: OrderFields = {};
  const text = (id: "external_id" | "secondary_external_id" | "insured_name", label: string, max: number) => {
    const value = values[id].trim();
    if (value === "") return;
    if (value.length > max) errors[id] = `${label} must be at most ${max} characters (it has ${value.length}).`;
    else fields[id] = value;
  };
  if (values.product_matrix_id !== "") fields.product_matrix_id = values.product_matrix_id;
  text("external_id", "External ID", 200);
  text("secondary_external_id", "Secondary ID", 200);
  text("insured_name", "Insured name", 300);

  const renewal = values.renewal_date.trim();
  if (renewal !== "") {
    if (isCalendarDate(renewal)) fields.renewal_date = renewal;
    else errors.renewal_date = "Enter the renewal date as a real date (YYYY-MM-DD).";
  }
  const premium = values.premium_amount.trim();
  if (premium !== "") {
    const amount = Number(premium);
    if (Number.isFinite(amount) && amount >= 0) fields.premium_amount = amount;
    else errors.premium_amount = "Enter the premium as an amount of 0 or more.";
  }

  const custom: Record<string, unknown> = {};
  for (const field of customFields) {
    const outcome = customValue(field, values.custom_fields[field.key]);
    if ("error" in outcome) errors[customFieldId(field.key)] = outcome.error;
    else if (outcome.value !== undefined) custom[field.key] = outcome.value;
  }
  if (Object.keys(custom).length > 0) fields.custom_fields = custom;
  return { errors, fields };
}

/** A custom field's value for the order (undefined: left out), or what is wrong with it. */
function customValue(field: CustomField, raw: string | boolean | undefined): { value: unknown } | { error: string } {
  // A checkbox always has a value, so it is always sent: unticked is a clear `false`.
  if (field.type === "boolean") return { value: raw === true };
  const text = typeof raw === "string" ? raw.trim() : "";
  if (text === "") return field.required ? { error: `${field.label} is required.` } : { value: undefined };
  switch (field.type) {
    case "number": {
      const number = Number(text);
      return Number.isFinite(number) ? { value: number } : { error: `${field.label} must be a number.` };
    }
    case "date":
      return isCalendarDate(text) ? { value: text } : { error: `${field.label} must be a real date (YYYY-MM-DD).` };
    default:
      return { value: text };
  }
}

/** Whether `text` is `YYYY-MM-DD` naming a day that exists (no 31 April). */
function isCalendarDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text);
}
