import { newId } from "../tenancy/secrets.js";

/** A new event id such as `msg_4f0k9c2m7x1q8z3h`: the `webhook-id` that every attempt of one event carries. */
export function newEventId(): string {
  return newId("msg");
}
