import { type Static, Type } from "typebox";

/** `GET /v1/me`: who the bearer token speaks for. */
export const Caller = Type.Object({
  org_id: Type.String(),
  client_id: Type.String(),
});
export type Caller = Static<typeof Caller>;
