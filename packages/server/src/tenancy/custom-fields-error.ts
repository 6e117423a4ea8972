import type { FieldFault } from "@lotline/contract";
import { InvalidInputError } from "../errors.js";

/** An order's `custom_fields` break the organization's definitions: `faults` names each field and why. */
export class InvalidCustomFieldsError extends InvalidInputError {
  constructor(
    readonly faults: readonly FieldFault[],
    message: string,
  ) {
    super("invalid_custom_fields", message);
  }
}
