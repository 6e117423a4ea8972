import { describedBy, Field } from "./field";

export interface SelectOption {
  value: string;
  label: string;
}

export interface SelectFieldProps {
  id: string;
  label: string;
  value: string;
  options: readonly SelectOption[];
  onChange: (value: string) => void;
  required?: boolean;
  hint?: string | undefined;
  error?: string | undefined;
}

/** A labelled select (see {@link Field}). */
export function SelectField({ id, label, value, options, onChange, required, hint, error }: SelectFieldProps) {
  return (
    <Field id={id} label={label} required={required} hint={hint} error={error}>
      <select
        class="field__control"
        id={id}
        name={id}
        value={value}
        required={required}
        aria-invalid={error ? "true" : undefined}
        aria-describedby={describedBy(id, { hint, error })}
        onChange={(event) => onChange(event.currentTarget.value)}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </Field>
  );
}
