import { type Static, Type } from "typebox";

/** `PUT /v1/monitoring`: where the organization hears of catastrophe events and changes to its properties. */
export const MonitoringInput = Type.Object(
  {
    callback_url: Type.String({
      format: "uri",
      maxLength: 2000,
      description: "Must start with one of the organization's registered callback prefixes.",
    }),
  },
  { additionalProperties: false },
);
export type MonitoringInput = Static<typeof MonitoringInput>;

/**
 * The organization's monitoring settings: `event.impacted` and `property.changed` webhooks go to `callback_url`,
 * signed like every other; null when none is set (nothing is sent).
 */
export const Monitoring = Type.Object({
  callback_url: Type.Union([Type.String(), Type.Null()]),
  updated_at: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
});
export type Monitoring = Static<typeof Monitoring>;
