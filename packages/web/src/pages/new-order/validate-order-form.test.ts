import type { CustomField } from "@lotline/contract";
import { describe, expect, it } from "vitest";
import type { OrderFormValues } from "./order-form-values";
import { validateOrderForm } from "./validate-order-form";

const empty: OrderFormValues = {
  product_matrix_id: "pm_default",
  external_id: "",
  secondary_external_id: "",
  insured_name: "",
  renewal_date: "",
  premium_amount: "",
  custom_fields: {},
};

const fields: CustomField[] = [
  { key: "roof_type", label: "Roof type", type: "text", required: true },
  { key: "storeys", label: "Storeys", type: "number", required: false },
  { key: "inspected_on", label: "Inspected on", type: "date", required: false },
  { key: "sprinklers", label: "Sprinklers", type: "boolean", required: false },
];

describe("validateOrderForm", () => {
  it("leaves empty optional fields out instead of sending them empty, and trims text", () => {
    const { errors, fields: order } = validateOrderForm({ ...empty, external_id: "  POL-1 ", insured_name: "   " }, []);
    expect(errors).toEqual({});
    expect(order).toEqual({ product_matrix_id: "pm_default", external_id: "POL-1" });
  });

  it("refuses what the order API refuses: lengths, dates that do not exist, a negative premium", () => {
    const { errors, fields: order } = validateOrderForm(
      {
        ...empty,
        external_id: "x".repeat(201),
        secondary_external_id: "y".repeat(200),
        insured_name: "z".repeat(301),
        renewal_date: "2027-02-30",
        premium_amount: "-1",
      },
      [],
    );
    expect(Object.keys(errors).sort()).toEqual(["external_id", "insured_name", "premium_amount", "renewal_date"]);
    expect(errors.external_id).toMatch(/at most 200 characters/);
    expect(order.secondary_external_id).toHaveLength(200);
  });

  it("takes a premium of 0 and a real renewal date", () => {
    const { errors, fields: order } = validateOrderForm(
      { ...empty, premium_amount: "0", renewal_date: "2028-02-29" },
      [],
    );
    expect(errors).toEqual({});
    expect(order).toMatchObject({ premium_amount: 0, renewal_date: "2028-02-29" });
  });

  it("checks custom fields by type, requires the required ones and sends checkboxes as booleans", () => {
    const missing = validateOrderForm(
      { ...empty, custom_fields: { storeys: "two", inspected_on: "2026-13-01" } },
      fields,
    );
    expect(missing.errors).toEqual({
      "custom_fields.roof_type": "Roof type is required.",
      "custom_fields.storeys": "Storeys must be a number.",
      "custom_fields.inspected_on": "Inspected on must be a real date (YYYY-MM-DD).",
    });

    const given = validateOrderForm(
      { ...empty, custom_fields: { roof_type: " slate ", storeys: "2", inspected_on: "", sprinklers: true } },
      fields,
    );
    expect(given.errors).toEqual({});
    expect(given.fields.custom_fields).toEqual({ roof_type: "slate", storeys: 2, sprinklers: true });
  });
});
