import { type Static, Type } from "typebox";

export const CUSTOM_FIELD_TYPES = ["text", "number", "date", "boolean"] as const;
export const CustomFieldType = Type.Union([
  Type.Literal("text"),
  Type.Literal("number"),
  Type.Literal("date"),
  Type.Literal("boolean"),
]);
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

/**
 * A policy field an organization defines for its orders (`custom_fields` of `POST /v1/orders`). A defined key
 * must hold a value of its type (a `date` is `YYYY-MM-DD`, a `text` at most 1000 characters); a required one must
 * be present. A key the organization has not defined is refused.
 */
export const CustomField = Type.Object({
  key: Type.String({ pattern: "^[a-z][a-z0-9_]{0,62}$" }),
  label: Type.String({ minLength: 1, maxLength: 100 }),
  type: CustomFieldType,
  required: Type.Boolean(),
});
export type CustomField = Static<typeof CustomField>;

/** `GET /v1/custom-fields`: the organization's custom fields, in the order a form shows them. */
export const CustomFieldList = Type.Object({ data: Type.Array(CustomField) });
export type CustomFieldList = Static<typeof CustomFieldList>;
