import fc from "fast-check";

/** The part of JSON Schema the API's documents use, as the OpenAPI document publishes it. */
export interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  patternProperties?: Record<string, JsonSchema>;
  maxProperties?: number;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  /** Values the tenant's data makes meaningful (its custom fields, a registered callback), offered beside random ones. */
  "x-known-values"?: unknown[];
}

/** Nesting deeper than the API allows (32), in a value of any declared type. */
const TOO_DEEP = 40;

/** Values a schema accepts; lengths and counts are kept small so that a run stays fast. */
export function validValue(schema: JsonSchema): fc.Arbitrary<unknown> {
  const known = schema["x-known-values"];
  if (known) return fc.oneof({ arbitrary: fc.constantFrom(...known), weight: 3 }, anyValidValue(schema));
  return anyValidValue(schema);
}

function anyValidValue(schema: JsonSchema): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map(validValue));
  switch (schema.type) {
    case "object":
      return validObject(schema);
    case "array":
      return fc.array(validValue(schema.items ?? {}), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? 4, 4)),
      });
    case "string":
      return validString(schema);
    case "integer":
      return fc.integer({ min: schema.minimum ?? -1_000_000, max: schema.maximum ?? 1_000_000 });
    case "number":
      return fc.double({
        min: schema.minimum ?? -1e9,
        max: schema.maximum ?? 1e9,
        noNaN: true,
        noDefaultInfinity: true,
      });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    default:
      return fc.jsonValue({ maxDepth: 3 });
  }
}

function validObject(schema: JsonSchema): fc.Arbitrary<unknown> {
  const properties = schema.properties ?? {};
  const members = Object.fromEntries(Object.entries(properties).map(([name, member]) => [name, validValue(member)]));
  const fixed = fc.record(members, { requiredKeys: schema.required ?? [] });
  const open = Object.values(schema.patternProperties ?? {})[0];
  if (!open) return fixed;
  const extra = fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), validValue(open), {
    maxKeys: Math.min(schema.maxProperties ?? 3, 3),
  });
  return fc.tuple(fixed, extra).map(([named, more]) => ({ ...more, ...(named as object) }));
}

function validString(schema: JsonSchema): fc.Arbitrary<string> {
  if (schema.format === "date") {
    return fc
      .date({ min: new Date("1900-01-01"), max: new Date("2199-12-31"), noInvalidDate: true })
      .map((date) => date.toISOString().slice(0, 10));
  }
  if (schema.format === "uri") return fc.webUrl();
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? 40, 40));
  const text = fc.string({ minLength, maxLength, unit: "grapheme" });
  // A not-blank rule (`\S`): lead with a letter, so that any text that follows keeps it not blank.
  if (schema.pattern === "\\S") return fc.string({ maxLength: maxLength - 1 }).map((rest) => `a${rest}`);
  return text;
}

/** Values that break `schema` for certain: a wrong type, a bound crossed, a rule broken, text no one may send. */
export function breakingValue(schema: JsonSchema): fc.Arbitrary<unknown> {
  const breaks: fc.Arbitrary<unknown>[] = [unstorableText(), tooDeep()];
  if (isChoice(schema)) breaks.push(fc.constant("not-one-of-these"), fc.constant(7));
  switch (schema.type) {
    case "object":
      breaks.push(fc.constantFrom(null, [], "object", 1));
      if (schema.additionalProperties === false) breaks.push(fc.constant({ not_a_field: 1 }));
      break;
    case "array":
      breaks.push(fc.constantFrom(null, {}, "list", 2));
      if (schema.minItems) breaks.push(fc.constant([]));
      break;
    case "string":
      breaks.push(fc.constantFrom(42, true, null, {}, ["text"]));
      if (schema.maxLength !== undefined) breaks.push(fc.constant("x".repeat(schema.maxLength + 1)));
      if (schema.minLength) breaks.push(fc.constant(""));
      if (schema.pattern === "\\S") breaks.push(fc.constantFrom(" ", "\t\n ", "   "));
      if (schema.format === "date") breaks.push(fc.constantFrom("31/01/2027", "2027-02-30", "2027-1-1"));
      if (schema.format === "uri") breaks.push(fc.constantFrom("not a url", "://x"));
      break;
    case "integer":
    case "number":
      breaks.push(fc.constantFrom("42", "0x10", true, null, [1], {}));
      if (schema.type === "integer") breaks.push(fc.constant(1.5));
      if (schema.maximum !== undefined) breaks.push(fc.constant(schema.maximum + 1), fc.constant(1e308));
      if (schema.minimum !== undefined) breaks.push(fc.constant(schema.minimum - 1), fc.constant(-1e308));
      break;
    case "boolean":
      breaks.push(fc.constantFrom("true", 1, 0, null));
      break;
  }
  return fc.oneof(...breaks);
}

/** Text of a query or path parameter that breaks `schema`: parameters are text, so only what text can break. */
export function breakingParameter(schema: JsonSchema): fc.Arbitrary<string> {
  // A URL cannot carry half a surrogate pair (it is sent as UTF-8), so NUL is the one unstorable character here.
  const breaks: fc.Arbitrary<string>[] = [fc.string({ maxLength: 8 }).map((text) => `${text}\u0000`)];
  if (schema.type === "integer" || schema.type === "number") {
    breaks.push(fc.constantFrom("Infinity", "-Infinity", "NaN", "1e309", "0x10", "abc", "", " 1", "1,5", "true"));
    if (schema.type === "integer") breaks.push(fc.constantFrom("1.5", "1e3", "2147483648", "99999999999999999999"));
    if (schema.maximum !== undefined) breaks.push(fc.constant(String(schema.maximum + 1)));
    if (schema.minimum !== undefined) breaks.push(fc.constant(String(schema.minimum - 1)));
  }
  if (schema.type === "boolean") breaks.push(fc.constantFrom("1", "yes", ""));
  if (isChoice(schema)) breaks.push(fc.constant("not-one-of-these"));
  if (schema.maxLength !== undefined) breaks.push(fc.constant("x".repeat(schema.maxLength + 1)));
  return fc.oneof(...breaks);
}

/** A schema that allows a few constants only (an enum, a union of literals). */
function isChoice(schema: JsonSchema): boolean {
  return schema.const !== undefined || schema.enum !== undefined || (schema.anyOf?.every(isChoice) ?? false);
}

/** Text no database may store: NUL, or half of a surrogate pair. */
export function unstorableText(): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.string({ maxLength: 8 }),
      fc.constantFrom("\u0000", "\ud800", "\udfff", "a\ud83d"),
      fc.string({ maxLength: 8 }),
    )
    .map(([before, bad, after]) => `${before}${bad}${after}`);
}

function tooDeep(): fc.Arbitrary<unknown> {
  return fc.constantFrom("object", "array").map((kind) => {
    let value: unknown = 1;
    for (let level = 0; level < TOO_DEEP; level++) value = kind === "object" ? { a: value } : [value];
    return value;
  });
}
