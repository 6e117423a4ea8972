import type { ComponentChildren } from "preact";

export interface FieldProps {
  /** The control's id, which the label points to. */
  id: string;
  label: string;
  required?: boolean | undefined;
  hint?: string | undefined;
  /** What is wrong with the value; shown under the control and announced with it. */
  error?: string | undefined;
  children: ComponentChildren;
}

/**
 * A labelled form control with its hint and error. The control must carry `aria-describedby={describedBy(…)}` and
 * `aria-invalid` so that a screen reader reads the hint and the error with it.
 */
export function Field({ id, label, required, hint, error, children }: FieldProps) {
  return (
    <div class={error ? "field field--invalid" : "field"}>
      <label class="field__label" for={id}>
        {label}
        {required && <span class="field__required"> (required)</span>}
      </label>
      {children}
      {hint && (
        <p class="field__hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p class="field__error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** The `aria-describedby` of a {@link Field}'s control: its hint and error, when it has them. */
export function describedBy(id: string, { hint, error }: { hint?: string | undefined; error?: string | undefined }) {
  const ids = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter((part) => part !== "");
  return ids.length > 0 ? ids.join(" ") : undefined;
}
