import { type Static, Type } from "typebox";

/**
 * An `application/problem+json` error body (RFC 9457). `code` is stable and meant for machines;
 * `title` and `detail` are for people and may change.
 */
export const Problem = Type.Object({
  type: Type.String(),
  title: Type.String(),
  status: Type.Integer(),
  code: Type.String(),
  detail: Type.Optional(Type.String()),
});
export type Problem = Static<typeof Problem>;
