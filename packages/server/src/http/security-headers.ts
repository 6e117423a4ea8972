import type { FastifyInstance } from "fastify";
import type { Config } from "../config/config.js";

/** What answers about a tenant's data: never for a shared cache, nor for the browser's disk. */
const PRIVATE_PREFIXES = ["/v1/", "/embed/api/"];

/**
 * Headers every answer carries, set before any route runs so errors, redirects and 404s have them too; a route
 * may still set its own `Cache-Control` (the public metadata and assets do). `nosniff` stops a browser from
 * reading a JSON answer as a script or a page; HSTS only when the service is reached over https, because a
 * browser would otherwise refuse a plain-http development service for a year.
 */
export function installSecurityHeaders(app: FastifyInstance, { publicUrl }: Pick<Config, "publicUrl">): void {
  const https = publicUrl.startsWith("https:");
  app.addHook("onRequest", async (request, reply) => {
    reply.header("x-content-type-options", "nosniff");
    if (https) reply.header("strict-transport-security", "max-age=31536000");
    if (PRIVATE_PREFIXES.some((prefix) => request.url.startsWith(prefix))) reply.header("cache-control", "no-store");
  });
}
