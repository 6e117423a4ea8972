import type { CustomField } from "@lotline/contract";
import { CheckboxField } from "../../ui/checkbox-field";
import { TextField } from "../../ui/text-field";
import { customFieldId } from "./validate-order-form";

export interface CustomFieldInputProps {
  field: CustomField;
  value: string | boolean | undefined;
  error: string | undefined;
  onChange: (value: string | boolean) => void;
}

/** The control for one of the organization's custom fields, by its type. */
export function CustomFieldInput({ field, value, error, onChange }: CustomFieldInputProps) {
  const id = customFieldId(field.key);
  if (field.type === "boolean") {
    return <CheckboxField id={id} label={field.label} checked={value === true} onChange={onChange} error={error} />;
  }
  return (
    <TextField
      id={id}
      label={field.label}
      type={field.type === "text" ? "text" : field.type}
      value={typeof value === "string" ? value : ""}
      onInput={onChange}
      required={field.required}
      error={error}
      {...(field.type === "number" ? { step: "any", inputMode: "decimal" as const } : {})}
    />
  );
}
