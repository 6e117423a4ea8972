import { describedBy } from "./field";

export interface CheckboxFieldProps {
  id: string;
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  required?: boolean | undefined;
  error?: string | undefined;
}

/** A checkbox with its label beside it, and its error under it. */
export function CheckboxField({ id, label, checked, onChange, required, error }: CheckboxFieldProps) {
  return (
    <div class={error ? "field field--checkbox field--invalid" : "field field--checkbox"}>
      <input
        id={id}
        name={id}
        type="checkbox"
        checked={checked}
        required={required}
        aria-invalid={error ? "true" : undefined}
        aria-describedby={describedBy(id, { error })}
        onChange={(event) => onChange(event.currentTarget.checked)}
      />
      <label for={id}>
        {label}
        {required && <span class="field__required"> (required)</span>}
      </label>
      {error && (
        <p class="field__error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}
