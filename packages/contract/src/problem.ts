import { type Static, Type } from "typebox";

/** One field of a refused request and what is wrong with it. */
export const FieldFault = Type.Object({
  field: Type.String({
    description:
      "The field as the client sent it: a body member's path (`location.lat`, `custom_fields.year_built`), a query " +
      "or path parameter's name, or a header's name.",
  }),
  reason: Type.String(),
});
export type FieldFault = Static<typeof FieldFault>;

/**
 * An `application/problem+json` error body (RFC 9457). `code` is stable and meant for machines;
 * `title` and `detail` are for people and may change. `errors` names the fields at fault when the request's
 * input was refused (`invalid_request`, `invalid_custom_fields`).
 */
export const Problem = Type.Object({
  type: Type.String(),
  title: Type.String(),
  status: Type.Integer(),
  code: Type.String(),
  detail: Type.Optional(Type.String()),
  errors: Type.Optional(Type.Array(FieldFault)),
});
export type Problem = Static<typeof Problem>;
