import type { FieldFault, Problem } from "@lotline/contract";
import { HttpProblem } from "../../http/problem.js";

/**
 * A request whose input breaks the rules, answered with every field at fault in `errors` beside the usual
 * problem members: `400 invalid_request` when the request's shape is wrong, `422` with a rule's own code when
 * well-formed values break a rule of the organization (its custom fields).
 */
export class InvalidRequestProblem extends HttpProblem {
  constructor(
    readonly errors: readonly FieldFault[],
    { status = 400, code = "invalid_request", detail = describeFaults(errors) } = {},
  ) {
    super(status, code, status === 422 ? "Unprocessable Content" : "Bad Request", detail);
  }

  override toBody(): Problem {
    return { ...super.toBody(), errors: [...this.errors] };
  }
}

/** The faults in one sentence, for people: `premium_amount must be number; limit must be <= 100`. */
export function describeFaults(errors: readonly FieldFault[]): string {
  return errors.map(({ field, reason }) => `${field} ${reason}`).join("; ");
}
