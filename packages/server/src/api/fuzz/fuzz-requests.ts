import fc from "fast-check";
import {
  breakingParameter,
  breakingValue,
  type JsonSchema,
  unstorableText,
  validValue,
} from "./json-schema-arbitraries.js";

/** A request to send, and when it breaks the schema, which field and how (for the failure report). */
export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: unknown;
  /** What makes the request break its schema, or undefined for one the schema accepts. */
  breaks?: string;
}

/** The tenant the requests speak for: the credentials each kind of route takes, and values its data makes valid. */
export interface FuzzTenant {
  bearer: string;
  iframe: string;
  orgId: string;
  iframeKey: string;
  clientId: string;
  clientSecret: string;
  /** Values of body members, by name, that the tenant's data makes acceptable: without them few orders would pass. */
  knownValues: Record<string, unknown[]>;
}

interface Parameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  schema: JsonSchema;
}

interface Operation {
  method: string;
  /** The path template, `/v1/orders/{order_id}`. */
  path: string;
  parameters: Parameter[];
  body?: JsonSchema;
}

type OpenApiDocument = {
  paths: Record<
    string,
    Record<string, { parameters?: Parameter[]; requestBody?: { content?: Record<string, { schema: JsonSchema }> } }>
  >;
};

/** The page API routes that take exactly the data API twin's input (hidden from the document, fuzzed all the same). */
const PAGE_TWINS: Record<string, string> = {
  "/v1/orders": "/embed/api/orders",
  "/v1/orders/{order_id}": "/embed/api/orders/{order_id}",
  "/v1/properties/{property_id}": "/embed/api/properties/{property_id}",
  "/v1/addresses": "/embed/api/addresses",
};

/**
 * Requests for every operation of the OpenAPI document (and the page API's twins of the data API's), half of
 * them the schema accepts and half breaking it in one place, plus the two credential endpoints the document
 * describes without a schema: the token endpoint (JSON and form) and the iframe sign-in (Basic credentials).
 */
export function fuzzRequests(document: unknown, credentials: FuzzTenant): fc.Arbitrary<FuzzRequest> {
  const operations = documentOperations(document as OpenApiDocument);
  for (const operation of operations) offerKnownValues(operation.body, credentials.knownValues);
  const requests: fc.Arbitrary<FuzzRequest>[] = [];
  for (const operation of operations) {
    const twin = PAGE_TWINS[operation.path];
    const routes: Array<[string, string]> = [[operation.path, credentials.bearer]];
    if (twin) routes.push([twin, credentials.iframe]);
    for (const [path, token] of routes) {
      const headers = { authorization: `Bearer ${token}` };
      requests.push(operationRequest({ ...operation, path }, headers));
    }
  }
  requests.push(tokenRequest(credentials), signinRequest(credentials));
  return fc.oneof(...requests);
}

/** The document's operations under /v1 with their parameters and JSON body schema. */
export function documentOperations(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    if (!path.startsWith("/v1/")) continue;
    for (const [method, operation] of Object.entries(item)) {
      const body = operation.requestBody?.content?.["application/json"]?.schema;
      operations.push({
        method: method.toUpperCase(),
        path,
        parameters: operation.parameters ?? [],
        ...(body ? { body } : {}),
      });
    }
  }
  return operations;
}

/** Marks the body's members named in `knownValues` with those values. */
function offerKnownValues(body: JsonSchema | undefined, knownValues: Record<string, unknown[]>): void {
  for (const [name, member] of Object.entries(body?.properties ?? {})) {
    const known = knownValues[name];
    if (known) member["x-known-values"] = known;
  }
}

function operationRequest(operation: Operation, auth: Record<string, string>): fc.Arbitrary<FuzzRequest> {
  const valid = fc
    .record({
      path: pathValues(operation),
      query: queryValues(operation),
      headers: headerValues(operation),
      body: operation.body ? validValue(operation.body) : fc.constant(undefined),
    })
    .map((parts) => toRequest(operation, auth, parts));
  const sites = breakSites(operation);
  if (sites.length === 0) return valid;
  const broken = fc.constantFrom(...sites).chain((site) =>
    fc
      .record({
        path: site.path ?? pathValues(operation),
        query: site.query ?? queryValues(operation),
        headers: headerValues(operation),
        body: site.body ?? (operation.body ? validValue(operation.body) : fc.constant(undefined)),
      })
      .map((parts) => ({ ...toRequest(operation, auth, parts), breaks: site.label })),
  );
  return fc.oneof(valid, broken);
}

interface Parts {
  path: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: unknown;
}

function toRequest(operation: Operation, auth: Record<string, string>, parts: Parts): FuzzRequest {
  const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(parts.path[name] ?? ""));
  const query = new URLSearchParams(parts.query).toString();
  return {
    method: operation.method,
    url: query ? `${path}?${query}` : path,
    headers: { ...auth, ...parts.headers },
    ...(parts.body === undefined ? {} : { payload: parts.body }),
  };
}

function parametersIn(operation: Operation, where: Parameter["in"]): Parameter[] {
  return operation.parameters.filter((parameter) => parameter.in === where);
}

function pathValues(operation: Operation): fc.Arbitrary<Record<string, string>> {
  const values = parametersIn(operation, "path").map((parameter) => [parameter.name, parameterText(parameter.schema)]);
  return fc.record(Object.fromEntries(values));
}

function queryValues(operation: Operation, without?: string): fc.Arbitrary<Record<string, string>> {
  const parameters = parametersIn(operation, "query").filter((parameter) => parameter.name !== without);
  const values = Object.fromEntries(parameters.map((parameter) => [parameter.name, parameterText(parameter.schema)]));
  const required = parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name);
  return fc.record(values, { requiredKeys: required });
}

function headerValues(operation: Operation): fc.Arbitrary<Record<string, string>> {
  // Header values are printable ASCII on the wire; anything else the client library refuses before sending.
  const values = parametersIn(operation, "header").map((parameter): [string, fc.Arbitrary<string>] => [
    parameter.name,
    fc.stringMatching(/^[\x21-\x7e]{1,40}$/),
  ]);
  // With no key required, a header left out is absent, never undefined.
  return fc.record(Object.fromEntries(values), { requiredKeys: [] }) as fc.Arbitrary<Record<string, string>>;
}

/** A parameter's value as text, the way a client writes it in a URL. */
function parameterText(schema: JsonSchema): fc.Arbitrary<string> {
  return validValue(schema).map((value) => (typeof value === "string" ? value : JSON.stringify(value)));
}

interface BreakSite {
  label: string;
  path?: fc.Arbitrary<Record<string, string>>;
  query?: fc.Arbitrary<Record<string, string>>;
  body?: fc.Arbitrary<unknown>;
}

/** Every place one request can break its schema: each parameter, a required one left out, each body member. */
function breakSites(operation: Operation): BreakSite[] {
  const sites: BreakSite[] = [];
  for (const parameter of parametersIn(operation, "path")) {
    const others = pathValues(operation);
    sites.push({
      label: `path parameter ${parameter.name}`,
      path: fc
        .tuple(
          others,
          breakingParameter(parameter.schema).filter((text) => text !== ""),
        )
        .map(([values, bad]) => ({ ...values, [parameter.name]: bad })),
    });
  }
  for (const parameter of parametersIn(operation, "query")) {
    sites.push({
      label: `query parameter ${parameter.name}`,
      query: fc
        .tuple(queryValues(operation, parameter.name), breakingParameter(parameter.schema))
        .map(([values, bad]) => ({ ...values, [parameter.name]: bad })),
    });
    if (parameter.required) {
      sites.push({
        label: `query parameter ${parameter.name} left out`,
        query: queryValues(operation, parameter.name),
      });
    }
  }
  if (operation.body) {
    for (const site of bodySites(operation.body, [])) sites.push({ label: `body ${site.label}`, body: site.body });
  }
  return sites;
}

interface BodySite {
  label: string;
  body: fc.Arbitrary<unknown>;
}

/** How deep into the body's schema the sites go: far enough for a polygon's coordinates. */
const SITE_DEPTH = 6;

function bodySites(schema: JsonSchema, path: string[]): BodySite[] {
  const here = path.join(".") || "(whole)";
  const sites: BodySite[] = [{ label: `${here} wrong`, body: breakingValue(schema) }];
  if (path.length >= SITE_DEPTH) return sites;
  if (schema.type === "object" && schema.properties) {
    const properties = schema.properties;
    for (const key of schema.required ?? []) {
      sites.push({
        label: `${here} without ${key}`,
        body: validValue(schema).map((value) => withoutMember(value, key)),
      });
    }
    if (schema.additionalProperties === false) {
      sites.push({
        label: `${here} with an unknown member`,
        body: validValue(schema).map((value) => ({ ...(value as object), not_a_field: true })),
      });
    }
    for (const [name, member] of Object.entries(properties)) {
      for (const inner of bodySites(member, [...path, name])) {
        sites.push({ label: inner.label, body: objectWith(schema, name, inner.body) });
      }
    }
  }
  if (schema.type === "array" && schema.items && schema.maxItems !== 0) {
    const items = schema.items;
    for (const inner of bodySites(items, [...path, "[0]"])) {
      const rest = fc.array(validValue(items), { minLength: Math.max((schema.minItems ?? 0) - 1, 0), maxLength: 3 });
      sites.push({ label: inner.label, body: fc.tuple(inner.body, rest).map(([first, more]) => [first, ...more]) });
    }
  }
  return sites;
}

/** A valid object of `schema` whose member `name` comes from `member`. */
function objectWith(schema: JsonSchema, name: string, member: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.tuple(validValue(schema), member).map(([value, inner]) => ({ ...(value as object), [name]: inner }));
}

function withoutMember(value: unknown, key: string): unknown {
  const { [key]: _left, ...rest } = value as Record<string, unknown>;
  return rest;
}

/** `POST /oauth/token` with any parameters, as JSON or a form; a value with NUL breaks it. */
function tokenRequest(credentials: FuzzTenant): fc.Arbitrary<FuzzRequest> {
  const value = fc.oneof(
    fc.string({ maxLength: 30, unit: "grapheme" }),
    fc.constantFrom(credentials.clientId, credentials.clientSecret, "client_credentials"),
    fc.string({ maxLength: 8 }).map((text) => `${text}\u0000`),
  );
  const parameters = fc.dictionary(
    fc.constantFrom("grant_type", "client_id", "client_secret", "audience", "scope", "other"),
    value,
    { maxKeys: 5 },
  );
  return fc.tuple(parameters, fc.boolean()).map(([values, asForm]) => {
    const broken = Object.values(values).some((text) => text.includes("\u0000"));
    return {
      method: "POST",
      url: "/oauth/token",
      headers: asForm ? { "content-type": "application/x-www-form-urlencoded" } : ({} as Record<string, string>),
      payload: asForm ? new URLSearchParams(values).toString() : values,
      ...(broken ? { breaks: "a token parameter holds NUL" } : {}),
    };
  });
}

/** `POST /auth/signin/integration` with Basic credentials of any bytes; NUL in them breaks it. */
function signinRequest(credentials: FuzzTenant): fc.Arbitrary<FuzzRequest> {
  const half = fc.oneof(
    fc.constantFrom(credentials.orgId, credentials.iframeKey),
    fc.string({ maxLength: 20, unit: "grapheme" }),
    unstorableText(),
  );
  const bytes = fc.uint8Array({ maxLength: 40 }).map((array) => Buffer.from(array));
  return fc
    .oneof(
      fc.tuple(half, half).map(([user, password]) => Buffer.from(`${user}:${password}`, "utf8")),
      bytes,
    )
    .map((raw) => ({
      method: "POST",
      url: "/auth/signin/integration",
      headers: { authorization: `Basic ${raw.toString("base64")}` },
      ...(raw.includes(0) ? { breaks: "the Basic credentials hold NUL" } : {}),
    }));
}
