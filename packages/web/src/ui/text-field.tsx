import { describedBy, Field } from "./field";

export interface TextFieldProps {
  id: string;
  label: string;
  value: string;
  onInput: (value: string) => void;
  type?: "text" | "number" | "date" | "search";
  required?: boolean | undefined;
  hint?: string | undefined;
  error?: string | undefined;
  maxLength?: number;
  min?: number;
  step?: string;
  inputMode?: "decimal" | "text";
  autoComplete?: string;
}

/** A labelled text, number or date input (see {@link Field}). */
export function TextField({
  id,
  label,
  value,
  onInput,
  type = "text",
  required,
  hint,
  error,
  ...rest
}: TextFieldProps) {
  return (
    <Field id={id} label={label} required={required} hint={hint} error={error}>
      <input
        class="field__control"
        id={id}
        name={id}
        // Preact types the attributes of each input type apart; these four share all the ones used here.
        type={type as "text"}
        value={value}
        required={required}
        aria-invalid={error ? "true" : undefined}
        aria-describedby={describedBy(id, { hint, error })}
        onInput={(event) => onInput(event.currentTarget.value)}
        {...rest}
      />
    </Field>
  );
}
