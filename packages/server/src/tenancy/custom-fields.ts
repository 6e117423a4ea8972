import { CUSTOM_FIELD_TYPES, type CustomField, type CustomFieldType, type FieldFault } from "@lotline/contract";
import type { Kysely } from "kysely";
import { isCalendarDate } from "../calendar-date.js";
import type { Schema } from "../db/schema.js";
import { DomainError, InvalidInputError } from "../errors.js";
import { InvalidCustomFieldsError } from "./custom-fields-error.js";
import { requireOrganization } from "./organizations.js";

/** The contract's key rule: what a form control and a JSON member can both be named. */
const KEY_PATTERN = /^[a-z][a-z0-9_]{0,62}$/;
const LABEL_MAX = 100;
const TEXT_MAX = 1000;

/** What an operator gives to define a field; `type` is checked here, since it comes from a command line. */
export interface CustomFieldInput {
  key: string;
  label: string;
  type: string;
  required: boolean;
}

/**
 * Defines a custom field at the end of the organization's list. Throws {@link InvalidInputError} for a bad key
 * (`invalid_custom_field_key`), label (`invalid_custom_field_label`) or type (`invalid_custom_field_type`), and a
 * {@link DomainError} `custom_field_exists` (a conflict) when the organization already has the key.
 */
export async function addCustomField(db: Kysely<Schema>, orgId: string, input: CustomFieldInput): Promise<CustomField> {
  const field = parseCustomField(input);
  await requireOrganization(db, orgId);
  const last = await db
    .selectFrom("custom_fields")
    .select((eb) => eb.fn.max("position").as("position"))
    .where("org_id", "=", orgId)
    .executeTakeFirst();
  const position = last?.position === null || last?.position === undefined ? 0 : Number(last.position) + 1;
  // The primary key decides between two concurrent adds of one key: the loser inserts nothing.
  const inserted = await db
    .insertInto("custom_fields")
    .values({ org_id: orgId, ...field, required: field.required ? 1 : 0, position, created_at: Date.now() })
    .onConflict((conflict) => conflict.columns(["org_id", "key"]).doNothing())
    .executeTakeFirst();
  if (inserted.numInsertedOrUpdatedRows === 0n) {
    throw new DomainError("custom_field_exists", `the organization already has a custom field "${field.key}"`);
  }
  return field;
}

/** The organization's custom fields, in the order they were defined (the order a form shows them). */
export async function listCustomFields(db: Kysely<Schema>, orgId: string): Promise<CustomField[]> {
  const rows = await db
    .selectFrom("custom_fields")
    .select(["key", "label", "type", "required"])
    .where("org_id", "=", orgId)
    .orderBy("position")
    .orderBy("created_at")
    .orderBy("key")
    .execute();
  return rows.map((row) => ({ key: row.key, label: row.label, type: row.type, required: row.required === 1 }));
}

function parseCustomField(input: CustomFieldInput): CustomField {
  const key = input.key.trim();
  if (!KEY_PATTERN.test(key)) {
    throw new InvalidInputError(
      "invalid_custom_field_key",
      `a custom field key is a lower-case letter then up to 62 lower-case letters, digits or _; got "${input.key}"`,
    );
  }
  const label = input.label.trim();
  if (!label || label.length > LABEL_MAX) {
    throw new InvalidInputError("invalid_custom_field_label", `a custom field label has 1 to ${LABEL_MAX} characters`);
  }
  if (!CUSTOM_FIELD_TYPES.includes(input.type as CustomFieldType)) {
    throw new InvalidInputError(
      "invalid_custom_field_type",
      `a custom field type is one of ${CUSTOM_FIELD_TYPES.join(", ")}; got "${input.type}"`,
    );
  }
  return { key, label, type: input.type as CustomFieldType, required: input.required };
}

/**
 * Checks an order's `custom_fields` against the organization's definitions: only defined keys (another
 * organization's field, or a typo, is refused rather than stored), each holding a value of its type (text: a string
 * of at most 1000 characters, not blank when required; number: a finite number; date: a real calendar day as
 * `YYYY-MM-DD`; boolean), and every required key present. Throws {@link InvalidCustomFieldsError}
 * (`invalid_custom_fields`) naming every field at fault.
 */
export function checkCustomFields(
  definitions: readonly CustomField[],
  values: Readonly<Record<string, unknown>> | undefined,
): void {
  const faults: Array<FieldFault & { label?: string }> = [];
  const defined = new Set(definitions.map((field) => field.key));
  for (const key of Object.keys(values ?? {})) {
    if (!defined.has(key)) faults.push({ field: shortened(key), reason: "is not a custom field of the organization" });
  }
  for (const field of definitions) {
    const value = values?.[field.key];
    const reason = value === undefined ? (field.required ? "is required" : undefined) : typeFault(field, value);
    if (reason) faults.push({ field: field.key, label: field.label, reason });
  }
  if (faults.length === 0) return;
  const detail = faults.map(
    ({ field, label, reason }) => `${JSON.stringify(field)}${label ? ` (${label})` : ""} ${reason}`,
  );
  throw new InvalidCustomFieldsError(
    faults.map(({ field, reason }) => ({ field: `custom_fields.${field}`, reason })),
    `custom_fields: ${detail.join("; ")}`,
  );
}

/** What is wrong with `value` for the field's type, or undefined when nothing is. */
function typeFault(field: CustomField, value: unknown): string | undefined {
  switch (field.type) {
    case "text":
      if (typeof value !== "string") return `must be text, not ${describe(value)}`;
      if (value.length > TEXT_MAX) return `must be at most ${TEXT_MAX} characters, not ${value.length}`;
      if (field.required && value.trim() === "") return "is required and must not be blank";
      return undefined;
    case "number":
      return typeof value === "number" && Number.isFinite(value)
        ? undefined
        : `must be a number, not ${describe(value)}`;
    case "date":
      return typeof value === "string" && isCalendarDate(value)
        ? undefined
        : `must be a calendar date as YYYY-MM-DD, not ${describe(value)}`;
    case "boolean":
      return typeof value === "boolean" ? undefined : `must be true or false, not ${describe(value)}`;
  }
}

/** A key to echo: no key is longer than 63 characters, and a client's mistake need not come back whole. */
function shortened(key: string): string {
  return key.length > 64 ? `${key.slice(0, 63)}…` : key;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === "object") return "an object";
  return String(value);
}
