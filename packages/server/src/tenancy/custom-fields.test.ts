import type { CustomField } from "@lotline/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DomainError, InvalidInputError } from "../errors.js";
import { runCli } from "../test/run-cli.js";
import { createTenant, createTestApp, type TestApp } from "../test/test-app.js";
import { addCustomField, checkCustomFields, listCustomFields } from "./custom-fields.js";
import { InvalidCustomFieldsError } from "./custom-fields-error.js";

/** What `work` throws, or undefined. */
function thrownBy(work: () => unknown): unknown {
  try {
    work();
  } catch (error) {
    return error;
  }
  return undefined;
}

/** The domain error `work` fails with; fails the test if it succeeds. */
async function domainError(work: () => unknown): Promise<DomainError> {
  try {
    await work();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error("expected a domain error");
}

describe("custom fields of an organization", () => {
  let test: TestApp;
  beforeAll(async () => {
    test = await createTestApp();
  });
  afterAll(() => test.close());

  it("lists the fields in the order they were added, each organization its own", async () => {
    const { db } = test.services;
    const a = await createTenant(test.services);
    const b = await createTenant(test.services, "Other Mutual");
    expect(await listCustomFields(db, a.orgId)).toEqual([]);
    await addCustomField(db, a.orgId, { key: "year_built", label: "Year built", type: "number", required: false });
    await addCustomField(db, a.orgId, { key: "agent", label: " Agent ", type: "text", required: true });
    await addCustomField(db, a.orgId, { key: "inspected_on", label: "Inspected on", type: "date", required: false });
    await addCustomField(db, a.orgId, { key: "has_pool", label: "Pool", type: "boolean", required: false });
    await addCustomField(db, b.orgId, { key: "agent", label: "Broker", type: "text", required: false });
    expect(await listCustomFields(db, a.orgId)).toEqual([
      { key: "year_built", label: "Year built", type: "number", required: false },
      { key: "agent", label: "Agent", type: "text", required: true },
      { key: "inspected_on", label: "Inspected on", type: "date", required: false },
      { key: "has_pool", label: "Pool", type: "boolean", required: false },
    ]);
    expect(await listCustomFields(db, b.orgId)).toEqual([
      { key: "agent", label: "Broker", type: "text", required: false },
    ]);
  });

  it("refuses a bad key, label or type with its own code, and a key the organization already has as a conflict", async () => {
    const { db } = test.services;
    const { orgId } = await createTenant(test.services);
    const add =
      (key: string, type = "text", label = "Label") =>
      () =>
        addCustomField(db, orgId, { key, label, type, required: false });
    for (const key of ["", "Agent", "1st", "_x", "has-pool", "a".repeat(64)]) {
      const error = await domainError(add(key));
      expect(error).toBeInstanceOf(InvalidInputError);
      expect(error.code, key).toBe("invalid_custom_field_key");
    }
    expect((await domainError(add("roof", "string"))).code).toBe("invalid_custom_field_type");
    expect((await domainError(add("roof", "text", "  "))).code).toBe("invalid_custom_field_label");
    expect((await domainError(add("roof", "text", "x".repeat(101)))).code).toBe("invalid_custom_field_label");
    await add("roof")();
    const duplicate = await domainError(add("roof", "number"));
    expect(duplicate).not.toBeInstanceOf(InvalidInputError);
    expect(duplicate.code).toBe("custom_field_exists");
    expect(await listCustomFields(db, orgId)).toEqual([{ key: "roof", label: "Label", type: "text", required: false }]);
    expect(
      (
        await domainError(() =>
          addCustomField(db, "org_nobody", { key: "x", label: "X", type: "text", required: false }),
        )
      ).code,
    ).toBe("organization_not_found");
  });

  it("lotline custom-field add --json prints exactly the org and the field, and refuses bad arguments with exit 2", async () => {
    const { orgId } = await createTenant(test.services);
    const env = { LOTLINE_DATABASE_URL: test.testDatabase.url };
    const added = await runCli(
      [
        "custom-field",
        "add",
        "--org",
        orgId,
        "--key",
        "roof_age",
        "--label",
        "Roof age",
        "--type",
        "number",
        "--required",
        "--json",
      ],
      env,
    );
    expect(added.code).toBe(0);
    const printed = JSON.parse(added.stdout);
    expect(Object.keys(printed).sort()).toEqual(["key", "label", "org_id", "required", "type"]);
    expect(printed).toEqual({ org_id: orgId, key: "roof_age", label: "Roof age", type: "number", required: true });
    const optional = await runCli(
      ["custom-field", "add", "--org", orgId, "--key", "notes", "--label", "Notes", "--type", "text"],
      env,
    );
    expect(optional.code).toBe(0);
    expect(optional.stdout).toContain("notes");
    expect(await listCustomFields(test.services.db, orgId)).toEqual([
      { key: "roof_age", label: "Roof age", type: "number", required: true },
      { key: "notes", label: "Notes", type: "text", required: false },
    ]);

    const refusals = [
      ["--org", orgId, "--key", "x", "--label", "X", "--type", "string"],
      ["--org", orgId, "--key", "Bad Key", "--label", "X", "--type", "text"],
      ["--org", orgId, "--key", "roof_age", "--label", "Again", "--type", "text"],
      ["--org", orgId, "--key", "x", "--type", "text"],
      ["--org", orgId, "--key", "x", "--label", "X", "--type", "text", "--colour", "red"],
    ];
    for (const args of refusals) {
      const run = await runCli(["custom-field", "add", ...args], env);
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr.trim().split("\n"), args.join(" ")).toHaveLength(1);
    }
    expect((await runCli(["help"], env)).stdout).toContain("custom-field add --org ORG_ID --key KEY");
  });
});

describe("checkCustomFields", () => {
  const fields: CustomField[] = [
    { key: "agent", label: "Agent", type: "text", required: true },
    { key: "notes", label: "Notes", type: "text", required: false },
    { key: "year_built", label: "Year built", type: "number", required: false },
    { key: "inspected_on", label: "Inspected on", type: "date", required: false },
    { key: "has_pool", label: "Pool", type: "boolean", required: false },
  ];

  /** The detail of the refusal; fails the test if the values pass. */
  function refusal(values: Record<string, unknown> | undefined, definitions = fields): string {
    try {
      checkCustomFields(definitions, values);
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidInputError);
      expect((error as InvalidInputError).code).toBe("invalid_custom_fields");
      return (error as Error).message;
    }
    throw new Error(`accepted ${JSON.stringify(values)}`);
  }

  it("accepts values of their types and leaves optional fields out", () => {
    expect(() =>
      checkCustomFields(fields, {
        agent: "J. Smith",
        notes: "",
        year_built: 1987.5,
        inspected_on: "2024-02-29",
        has_pool: false,
      }),
    ).not.toThrow();
    expect(() => checkCustomFields(fields, { agent: "x".repeat(1000) })).not.toThrow();
    expect(() => checkCustomFields([], undefined)).not.toThrow();
    expect(() => checkCustomFields([], {})).not.toThrow();
  });

  it("refuses a key the organization has not defined, naming it in the detail and in the faults", () => {
    expect(refusal({ agent: "A", undefined_key: { anything: [1, 2] } })).toMatch(
      /"undefined_key" is not a custom field of the organization/,
    );
    expect(refusal({ whatever: null }, [])).toMatch(/"whatever" is not a custom field/);
    const refused = thrownBy(() => checkCustomFields(fields, { agent: "A", roof: "tile", [`k${"e".repeat(900)}`]: 1 }));
    expect(refused).toBeInstanceOf(InvalidCustomFieldsError);
    expect((refused as InvalidCustomFieldsError).faults).toEqual([
      { field: "custom_fields.roof", reason: "is not a custom field of the organization" },
      { field: `custom_fields.k${"e".repeat(62)}…`, reason: "is not a custom field of the organization" },
    ]);
  });

  it("refuses a missing or blank required field, naming it", () => {
    expect(refusal(undefined)).toMatch(/"agent" \(Agent\) is required/);
    expect(refusal({ notes: "hi" })).toMatch(/"agent" \(Agent\) is required/);
    expect(refusal({ agent: "   " })).toMatch(/"agent" \(Agent\) is required and must not be blank/);
  });

  it.each([
    ["notes", 12, /"notes" \(Notes\) must be text, not 12/],
    ["notes", "x".repeat(1001), /"notes" \(Notes\) must be at most 1000 characters, not 1001/],
    ["year_built", "1987", /"year_built" \(Year built\) must be a number, not "1987"/],
    ["year_built", Number.NaN, /"year_built" .* must be a number, not NaN/],
    ["year_built", Number.POSITIVE_INFINITY, /"year_built" .* must be a number, not Infinity/],
    ["year_built", null, /"year_built" .* must be a number, not null/],
    [
      "inspected_on",
      "2023-02-29",
      /"inspected_on" \(Inspected on\) must be a calendar date as YYYY-MM-DD, not "2023-02-29"/,
    ],
    ["inspected_on", "2024-13-01", /"inspected_on" .* calendar date/],
    ["inspected_on", "2024-2-01", /"inspected_on" .* calendar date/],
    ["inspected_on", "2024-02-01T00:00:00Z", /"inspected_on" .* calendar date/],
    ["inspected_on", 20240201, /"inspected_on" .* calendar date/],
    ["has_pool", "true", /"has_pool" \(Pool\) must be true or false, not "true"/],
    ["has_pool", 1, /"has_pool" .* must be true or false, not 1/],
    ["has_pool", [true], /"has_pool" .* must be true or false, not a list/],
  ])("refuses %s = %s", (key, value, detail) => {
    expect(refusal({ agent: "A", [key]: value })).toMatch(detail);
  });

  it("names every field at fault in one refusal", () => {
    const detail = refusal({ year_built: "old", has_pool: "no" });
    expect(detail).toContain('"agent"');
    expect(detail).toContain('"year_built"');
    expect(detail).toContain('"has_pool"');
    expect(detail).not.toContain('"notes"');
  });
});
