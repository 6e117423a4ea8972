import { join } from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";

/**
 * `/assets/*`: the pages' scripts, styles and workers from `dist/assets`. Their names carry a hash of their
 * content, so a browser may keep each for a year without asking again. No token is needed: they hold no data.
 */
export async function registerPageAssets(app: FastifyInstance, distFolder: string): Promise<void> {
  await app.register(fastifyStatic, {
    root: join(distFolder, "assets"),
    prefix: "/assets/",
    // The folder appears when the web package is built, possibly after the service started.
    suppressWarning: true,
    decorateReply: false,
    index: false,
    list: false,
    dotfiles: "ignore",
    immutable: true,
    maxAge: "365d",
    setHeaders: (reply) => {
      reply.header("x-content-type-options", "nosniff");
    },
  });
}
