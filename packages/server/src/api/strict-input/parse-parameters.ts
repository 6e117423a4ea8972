/** A JSON Schema as a route declares it, read only for what parameters need. */
interface ParameterSchema {
  type?: unknown;
  properties?: Record<string, ParameterSchema>;
}

/** Digits, with an optional minus: no `+`, exponent, hexadecimal, space or fraction. */
const INTEGER = /^-?[0-9]+$/;
/** A decimal number as JSON writes one: no `Infinity`, `NaN`, `0x10` or blank. */
const NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

/**
 * Turns the text of query and path parameters into the numbers and booleans their schema declares, in place. Only
 * text written exactly as such a value converts: anything else stays text, and the schema then refuses it naming
 * the parameter. Ajv's own coercion is off because it takes `0x10` as 16, `Infinity` and `true` as numbers and
 * `""` as 0 — in bodies as well as here.
 */
export function parseParameters(values: unknown, schema: unknown): void {
  const properties = (schema as ParameterSchema | undefined)?.properties;
  if (!properties || values === null || typeof values !== "object") return;
  const parameters = values as Record<string, unknown>;
  for (const [name, property] of Object.entries(properties)) {
    const text = parameters[name];
    if (typeof text === "string") parameters[name] = parseValue(text, property.type);
  }
}

/** The number a decimal written as JSON writes one (`-71.1`, `4e-7`) stands for; undefined for any other text. */
export function parseDecimal(text: string): number | undefined {
  const number = NUMBER.test(text) ? Number(text) : Number.NaN;
  return Number.isFinite(number) ? number : undefined;
}

function parseValue(text: string, type: unknown): unknown {
  if (type === "integer" && INTEGER.test(text)) return finiteOr(text);
  if (type === "number" && NUMBER.test(text)) return finiteOr(text);
  if (type === "boolean" && (text === "true" || text === "false")) return text === "true";
  return text;
}

/** The number `text` writes; the text itself when it is too large to be one (`1e309`), for the schema to refuse. */
function finiteOr(text: string): number | string {
  const number = Number(text);
  return Number.isFinite(number) ? number : text;
}
