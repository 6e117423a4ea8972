import { Monitoring, MonitoringInput, Problem } from "@lotline/contract";
import type { FastifyInstance } from "fastify";
import {
  clearMonitoringCallback,
  type MonitoringSettings,
  monitoringSettings,
  setMonitoringCallback,
} from "../../monitoring/monitoring-settings.js";
import type { Services } from "../../services.js";

const DESCRIPTION =
  "Where the organization hears, by signed webhook, of catastrophe events meeting the properties it ordered " +
  "(event.impacted) and of imported data changing a property's record (property.changed).";

/** `GET`, `PUT` and `DELETE /v1/monitoring`: the organization's monitoring callback. */
export function registerMonitoringRoutes(app: FastifyInstance, { db }: Services): void {
  app.get(
    "/monitoring",
    {
      schema: {
        summary: "Where monitoring webhooks go",
        description: DESCRIPTION,
        tags: ["monitoring"],
        security: [{ bearer: [] }],
        response: { 200: Monitoring, "4xx": Problem },
      },
    },
    async (request) => present(await monitoringSettings(db, request.caller.orgId)),
  );

  app.put<{ Body: MonitoringInput }>(
    "/monitoring",
    {
      schema: {
        summary: "Send monitoring webhooks to a callback URL",
        description: `${DESCRIPTION} The URL must start with one of the organization's registered callback prefixes, else 422 callback_url_not_registered and nothing changes.`,
        tags: ["monitoring"],
        security: [{ bearer: [] }],
        body: MonitoringInput,
        response: { 200: Monitoring, "4xx": Problem },
      },
    },
    async (request) => present(await setMonitoringCallback(db, request.caller.orgId, request.body.callback_url)),
  );

  app.delete(
    "/monitoring",
    {
      schema: {
        summary: "Stop monitoring webhooks",
        tags: ["monitoring"],
        security: [{ bearer: [] }],
        response: { "4xx": Problem },
      },
    },
    async (request, reply) => {
      await clearMonitoringCallback(db, request.caller.orgId);
      return reply.code(204).send();
    },
  );
}

function present(settings: MonitoringSettings): Monitoring {
  return {
    callback_url: settings.callbackUrl,
    updated_at: settings.updatedAt === null ? null : new Date(settings.updatedAt).toISOString(),
  };
}
