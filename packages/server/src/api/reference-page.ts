import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { FastifyInstance } from "fastify";

/** The Swagger UI files served under `/docs/`, with their content types. */
const ASSETS: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Lotline API reference</title>
  <link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
  <div id="reference"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script src="/docs/start.js"></script>
</body>
</html>
`;

const START = `SwaggerUIBundle({ url: "/v1/openapi.json", dom_id: "#reference", deepLinking: true, tryItOutEnabled: false });\n`;

/**
 * `GET /docs`: the API reference, rendered by Swagger UI from `/v1/openapi.json`, with every file served by the
 * service itself (no outside network). Scalar, which the design suggests, needs Node 22; Swagger UI's static build
 * has no such requirement.
 */
export function registerReferencePage(app: FastifyInstance): void {
  const folder = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
  const cache = new Map<string, Buffer>();
  const asset = (name: string) => {
    let content = cache.get(name);
    if (!content) {
      content = readFileSync(join(folder, name));
      cache.set(name, content);
    }
    return content;
  };
  const security = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'";

  app.get("/docs", { schema: { hide: true } }, async (_request, reply) =>
    reply.type("text/html; charset=utf-8").header("content-security-policy", security).send(PAGE),
  );
  app.get("/docs/start.js", { schema: { hide: true } }, async (_request, reply) =>
    reply.type("text/javascript; charset=utf-8").send(START),
  );
  app.get<{ Params: { name: string } }>("/docs/:name", { schema: { hide: true } }, async (request, reply) => {
    const type = ASSETS[request.params.name];
    if (!type) return reply.callNotFound();
    return reply.type(type).header("cache-control", "public, max-age=86400").send(asset(request.params.name));
  });
}
