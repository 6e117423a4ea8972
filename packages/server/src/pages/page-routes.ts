import type { FastifyInstance, FastifyReply } from "fastify";
import { NotFoundError } from "../errors.js";
import type { Services } from "../services.js";
import { builtPagesFolder } from "./built-pages-folder.js";
import { CALLBACK_CHECK_ELEMENT_ID, checkPageCallback } from "./callback-check.js";
import { imageryOrigin, pageHeaders } from "./frame-policy.js";
import { registerLoginPage } from "./login-page.js";
import { checkPageToken, loginLocation } from "./page-access.js";
import { registerPageAssets } from "./page-assets.js";
import { PageFiles, type PageName, withInlineJson } from "./page-html.js";
import { buildPageSession } from "./page-session.js";

export interface PagesOptions {
  /** The web package's `dist` folder; by default the installed `@lotline/web` package's. Tests give their own. */
  distFolder?: string;
}

/** What a redirect to `/login` carries besides its address: it must not be cached or leak the page's address. */
const REDIRECT_HEADERS = { "cache-control": "no-store", "referrer-policy": "no-referrer" };

/**
 * The embeddable pages (INTERFACE.md §4.3, DESIGN.md §7) and `/login`, and the static assets they load. Each page
 * checks its `jwt` and answers the built HTML with the session inlined as JSON, framed only by the
 * organization's registered origins. The other query parameters are the page's own business: it reads them from
 * its address. Only `callback_url` is looked at here, so that the page can tell at once whether it is registered.
 */
export async function registerPages(
  app: FastifyInstance,
  services: Services,
  options: PagesOptions = {},
): Promise<void> {
  const files = await pageFiles(app, options);
  const page = (path: string, name: PageName) =>
    app.get<{ Querystring: { jwt?: unknown; callback_url?: unknown } }>(
      path,
      { schema: { hide: true } },
      (request, reply) => servePage(services, files, name, request.query.jwt, reply, request.query.callback_url),
    );
  page("/property-profile/new-order", "new-order");
  // Digits only, so `new-order` and anything else go elsewhere (a static path wins over a parameter anyway).
  app.get<{ Params: { property_id: string }; Querystring: { jwt?: unknown } }>(
    "/property-profile/:property_id(^[1-9][0-9]{0,15}$)",
    { schema: { hide: true } },
    (request, reply) =>
      Number.isSafeInteger(Number(request.params.property_id))
        ? servePage(services, files, "property-profile", request.query.jwt, reply)
        : reply.callNotFound(),
  );
  page("/embed/footprint-selection", "footprint-selection");
  registerLoginPage(app, services, files);
}

/** The page files, and `/assets/*` beside them; when the web package cannot be found, every page says so. */
async function pageFiles(app: FastifyInstance, { distFolder }: PagesOptions): Promise<PageFiles> {
  let folder: string;
  try {
    folder = distFolder ?? builtPagesFolder();
  } catch (error) {
    const why = `the @lotline/web package cannot be found: ${error instanceof Error ? error.message : error}`;
    app.log.warn(why);
    return new PageFiles(undefined, why);
  }
  await registerPageAssets(app, folder);
  return new PageFiles(folder);
}

async function servePage(
  services: Services,
  files: PageFiles,
  name: PageName,
  jwt: unknown,
  reply: FastifyReply,
  callbackUrl?: unknown,
): Promise<FastifyReply> {
  const access = await checkPageToken(services, jwt);
  if ("login" in access) return reply.headers(REDIRECT_HEADERS).redirect(access.login, 302);
  const html = await files.html(name);
  const session = await buildPageSession(services, access.session).catch((error: unknown) => {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  });
  // A genuine token of an organization that no longer exists speaks for nobody.
  if (!session) return reply.headers(REDIRECT_HEADERS).redirect(loginLocation("invalid"), 302);
  const withSession = withInlineJson(html, "lotline-session", session);
  const callback = await checkPageCallback(services.db, session.org_id, callbackUrl);
  return reply
    .headers(pageHeaders(session.host_origins, imageryOrigin(services.config)))
    .type("text/html; charset=utf-8")
    .send(callback ? withInlineJson(withSession, CALLBACK_CHECK_ELEMENT_ID, callback) : withSession);
}
