import type { PageSession } from "@lotline/contract";
import { SelectField } from "../../ui/select-field";
import { TextField } from "../../ui/text-field";
import { CustomFieldInput } from "./custom-field-input";
import type { OrderFormValues } from "./order-form-values";
import { customFieldId, type OrderFormErrors } from "./validate-order-form";

export interface OrderFormProps {
  session: PageSession;
  values: OrderFormValues;
  errors: OrderFormErrors;
  onChange: (values: OrderFormValues) => void;
  onSubmit: () => void;
  /** Why the order cannot be placed yet (the property is not located), or undefined when it can. */
  blocked: string | undefined;
  busy: boolean;
}

/** The order's policy fields, the organization's custom fields, and "Place order". */
export function OrderForm({ session, values, errors, onChange, onSubmit, blocked, busy }: OrderFormProps) {
  const set =
    <K extends keyof OrderFormValues>(key: K) =>
    (value: OrderFormValues[K]) =>
      onChange({ ...values, [key]: value });
  const setCustom = (key: string) => (value: string | boolean) =>
    onChange({ ...values, custom_fields: { ...values.custom_fields, [key]: value } });

  return (
    <form
      class="form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      {session.product_matrices.length > 0 && (
        <SelectField
          id="product_matrix_id"
          label="Product matrix"
          value={values.product_matrix_id}
          options={session.product_matrices.map((matrix) => ({
            value: matrix.product_matrix_id,
            label: matrix.is_default ? `${matrix.name} (default)` : matrix.name,
          }))}
          onChange={set("product_matrix_id")}
          error={errors.product_matrix_id}
        />
      )}
      <TextField
        id="external_id"
        label="External ID"
        value={values.external_id}
        onInput={set("external_id")}
        error={errors.external_id}
        maxLength={200}
      />
      <TextField
        id="secondary_external_id"
        label="Secondary ID"
        value={values.secondary_external_id}
        onInput={set("secondary_external_id")}
        error={errors.secondary_external_id}
        maxLength={200}
      />
      <TextField
        id="insured_name"
        label="Insured name"
        value={values.insured_name}
        onInput={set("insured_name")}
        error={errors.insured_name}
        maxLength={300}
        autoComplete="off"
      />
      <TextField
        id="renewal_date"
        label="Renewal date"
        type="date"
        value={values.renewal_date}
        onInput={set("renewal_date")}
        error={errors.renewal_date}
      />
      <TextField
        id="premium_amount"
        label="Premium amount"
        type="number"
        min={0}
        step="0.01"
        inputMode="decimal"
        value={values.premium_amount}
        onInput={set("premium_amount")}
        error={errors.premium_amount}
      />
      {session.custom_fields.map((field) => (
        <CustomFieldInput
          key={field.key}
          field={field}
          value={values.custom_fields[field.key]}
          error={errors[customFieldId(field.key)]}
          onChange={setCustom(field.key)}
        />
      ))}
      {blocked && (
        <p class="muted" id="place-order-blocked">
          {blocked}
        </p>
      )}
      <button
        type="submit"
        class="button button--primary"
        disabled={busy || blocked !== undefined}
        aria-describedby={blocked ? "place-order-blocked" : undefined}
      >
        Place order
      </button>
    </form>
  );
}
