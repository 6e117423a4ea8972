import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { Writable } from "node:stream";
import type { LoginContext, PageSession } from "@lotline/contract";
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, serverLogger } from "../app.js";
import { iframeTokenKind, issueIframeToken } from "../auth/tokens/iframe-token.js";
import { signJwt } from "../auth/tokens/jwt.js";
import { installErrorHandler } from "../http/error-handler.js";
import type { Services } from "../services.js";
import { addCallbackPrefix } from "../tenancy/callback-prefixes.js";
import { addCustomField } from "../tenancy/custom-fields.js";
import { addHostOrigin } from "../tenancy/host-origins.js";
import { accessTokenFor, createTenant, createTestApp, type TestApp, type TestTenant } from "../test/test-app.js";
import { builtPagesFolder } from "./built-pages-folder.js";
import { issueLoginTicket } from "./login-ticket.js";
import { registerPages } from "./page-routes.js";

const PAGES = ["new-order", "property-profile", "footprint-selection", "login"] as const;

/** A stand-in for the web package's build: each page names itself, and one hashed asset. */
function fakeDist(): string {
  const folder = mkdtempSync(join(tmpdir(), "lotline-pages-"));
  for (const page of PAGES) {
    writeFileSync(
      join(folder, `${page}.html`),
      `<!doctype html><html><head><title>${page}</title><script type="module" src="/assets/${page}-a1b2c3.js"></script></head><body data-page="${page}"></body></html>`,
    );
  }
  mkdirSync(join(folder, "assets"));
  writeFileSync(join(folder, "assets", "new-order-a1b2c3.js"), "console.log('new order');\n");
  writeFileSync(join(folder, "assets", ".secret"), "hidden\n");
  writeFileSync(join(folder, "outside.txt"), "not an asset\n");
  return folder;
}

/** The pages alone over `distFolder`, on the test app's services (database, keys, configuration). */
async function pagesApp(services: Services, distFolder: string): Promise<FastifyInstance> {
  const app = Fastify();
  installErrorHandler(app);
  await registerPages(app, services, { distFolder });
  return app;
}

/** The JSON a page was given in `<script type="application/json" id="…">`, read back as the page would. */
function inlineJson<T>(html: string, id: string): T {
  const match = new RegExp(`<script type="application/json" id="${id}">(.*?)</script>`, "s").exec(html);
  if (!match?.[1]) throw new Error(`no #${id} data block in ${html}`);
  return JSON.parse(match[1]) as T;
}

/** A Content-Security-Policy header as directive → its sources. */
function directives(response: LightMyRequestResponse): Record<string, string[]> {
  const policy = String(response.headers["content-security-policy"] ?? "");
  return Object.fromEntries(
    policy.split(";").map((part) => {
      const [name = "", ...sources] = part.trim().split(/\s+/);
      return [name, sources];
    }),
  );
}

const BASE_POLICY = {
  "default-src": ["'none'"],
  "script-src": ["'self'"],
  "style-src": ["'self'"],
  "img-src": ["'self'", "data:", "blob:"],
  "connect-src": ["'self'"],
  "worker-src": ["'self'", "blob:"],
  "font-src": ["'self'"],
  "base-uri": ["'none'"],
  "form-action": ["'none'"],
};

const HOST_A = "https://core.insurer.example";
const HOST_B = "http://localhost:4000";

describe("the embeddable pages", () => {
  let test: TestApp;
  let pages: FastifyInstance;
  let dist: string;
  let tenant: TestTenant;
  let unframed: TestTenant;
  let jwt: string;
  let expires: string;

  beforeAll(async () => {
    test = await createTestApp();
    dist = fakeDist();
    pages = await pagesApp(test.services, dist);
    tenant = await createTenant(test.services, "Harbour </script><script>alert(1)</script> Mutual");
    unframed = await createTenant(test.services, "Unframed Mutual");
    await addHostOrigin(test.services.db, tenant.orgId, HOST_B);
    await addHostOrigin(test.services.db, tenant.orgId, HOST_A);
    await addCustomField(test.services.db, tenant.orgId, {
      key: "agent",
      label: "Agent",
      type: "text",
      required: true,
    });
    ({ token: jwt, expires } = await issueIframeToken(test.services.keys, test.config, tenant.orgId));
  });
  afterAll(async () => {
    await pages.close();
    await test.close();
    rmSync(dist, { recursive: true, force: true });
  });

  const get = (url: string, app = pages) => app.inject({ url });
  const tokenFor = async (orgId: string) => (await issueIframeToken(test.services.keys, test.config, orgId)).token;
  /** A genuine iframe token of `orgId` that expired a minute ago. */
  const expiredTokenFor = async (orgId: string) =>
    (await signJwt(test.services.keys, iframeTokenKind(test.config), orgId, { org_id: orgId }, -60)).token;

  const pageUrls = (token: string) => [
    [
      "new-order",
      `/property-profile/new-order?jwt=${token}&address=${encodeURIComponent("12 Elm St, Springfield")}` +
        "&external_id=POL-1&secondary_external_id=S-1&insured_name=Jane%20Doe&callback_url=https%3A%2F%2Fcore.example%2Fhook&unknown=1",
    ],
    ["property-profile", `/property-profile/42?jwt=${token}`],
    [
      "footprint-selection",
      `/embed/footprint-selection?jwt=${token}&address=12%20Elm%20St&callback_url=x&external_id=POL-1`,
    ],
  ];

  it("serves each page with a valid JWT, its session inlined as JSON before </head>", async () => {
    for (const [page, url] of pageUrls(jwt)) {
      const requestedAt = Date.now();
      const response = await get(url as string);
      const answeredAt = Date.now();
      expect(response.statusCode, page).toBe(200);
      expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(response.body).toContain(`<body data-page="${page}">`);
      const head = response.body.slice(0, response.body.indexOf("</head>"));
      const session = inlineJson<PageSession>(head, "lotline-session");
      expect(session).toEqual({
        org_id: tenant.orgId,
        org_name: "Harbour </script><script>alert(1)</script> Mutual",
        expires_at: expires,
        expires_in: expect.any(Number),
        host_origins: [HOST_B, HOST_A].sort(),
        product_matrices: [
          {
            product_matrix_id: expect.any(String),
            name: "All products",
            products: expect.any(Array),
            is_default: true,
          },
        ],
        custom_fields: [{ key: "agent", label: "Agent", type: "text", required: true }],
        map: { imagery_url: null, imagery_attribution: null },
      });
      // The server counts whole seconds left at some instant while it answered.
      const expiresAt = Date.parse(expires) / 1000;
      expect(session.expires_in).toBeGreaterThanOrEqual(expiresAt - Math.floor(answeredAt / 1000));
      expect(session.expires_in).toBeLessThanOrEqual(expiresAt - Math.floor(requestedAt / 1000));
      expect(response.body).not.toContain(jwt);
    }
  });

  it("escapes < in the inlined JSON, so no value can end the data block", async () => {
    const response = await get(`/property-profile/new-order?jwt=${jwt}`);
    expect(response.body).not.toContain("<script>alert(1)");
    expect(response.body).toContain("\\u003c/script>\\u003cscript>alert(1)\\u003c/script>");
    expect(response.body.match(/<\/script>/g)).toHaveLength(2);
  });

  it("lets exactly the organization's registered origins frame its pages, with the page headers of DESIGN.md §7", async () => {
    for (const [page, url] of pageUrls(jwt)) {
      const response = await get(url as string);
      expect(directives(response), page).toEqual({ ...BASE_POLICY, "frame-ancestors": [HOST_B, HOST_A].sort() });
      expect(response.headers["referrer-policy"]).toBe("no-referrer");
      expect(response.headers["cache-control"]).toBe("no-store");
      expect(response.headers["x-frame-options"]).toBeUndefined();
    }
  });

  it("lets nobody frame the pages of an organization with no registered origin", async () => {
    const response = await get(`/embed/footprint-selection?jwt=${await tokenFor(unframed.orgId)}`);
    expect(response.statusCode).toBe(200);
    expect(directives(response)).toEqual({ ...BASE_POLICY, "frame-ancestors": ["'none'"] });
    expect(inlineJson<PageSession>(response.body, "lotline-session").host_origins).toEqual([]);
  });

  describe("sends a request without a live iframe JWT to /login, never echoing the token", () => {
    const expectLogin = async (url: string, location: string, token?: string) => {
      const response = await get(url);
      expect(response.statusCode, url).toBe(302);
      expect(response.headers.location).toBe(location);
      expect(response.headers["cache-control"]).toBe("no-store");
      if (token) expect(response.body + JSON.stringify(response.headers)).not.toContain(token);
    };

    it("says missing when there is no jwt, or an empty one", async () => {
      await expectLogin("/property-profile/new-order", "/login?reason=missing");
      await expectLogin("/property-profile/7?address=x", "/login?reason=missing");
      await expectLogin("/embed/footprint-selection?jwt=", "/login?reason=missing");
    });

    it("says invalid for garbage, a data API token, a forged or altered token, or jwt given twice", async () => {
      await expectLogin("/property-profile/new-order?jwt=not-a-jwt", "/login?reason=invalid");
      const dataApiToken = await accessTokenFor(test, tenant);
      await expectLogin(`/property-profile/new-order?jwt=${dataApiToken}`, "/login?reason=invalid", dataApiToken);
      const [header, payload, signature] = jwt.split(".") as [string, string, string];
      const claims = JSON.parse(Buffer.from(payload, "base64url").toString());
      const altered = `${header}.${Buffer.from(JSON.stringify({ ...claims, org_id: unframed.orgId })).toString("base64url")}.${signature}`;
      await expectLogin(`/property-profile/42?jwt=${altered}`, "/login?reason=invalid", altered);
      await expectLogin(`/embed/footprint-selection?jwt=${jwt}&jwt=${jwt}`, "/login?reason=invalid", jwt);
    });

    it("says expired, with the organization and a login ticket, for a genuine token that has only expired", async () => {
      const expired = await expiredTokenFor(tenant.orgId);
      for (const path of ["/property-profile/new-order", "/property-profile/42", "/embed/footprint-selection"]) {
        const response = await get(`${path}?jwt=${expired}`);
        expect(response.statusCode).toBe(302);
        const location = String(response.headers.location);
        expect(location).toMatch(new RegExp(`^/login\\?reason=expired&org=${tenant.orgId}&ticket=\\d+\\.[\\w-]{43}$`));
        expect(location).not.toContain(expired);
        // The ticket is what lets /login tell the organization's host.
        const login = await get(location);
        expect(inlineJson<LoginContext>(login.body, "lotline-login").host_origins).toEqual([HOST_B, HOST_A].sort());
      }
    });

    it("does not name the organization for an expired token that is not genuine", async () => {
      const expired = await expiredTokenFor(tenant.orgId);
      const [header, payload, signature] = expired.split(".") as [string, string, string];
      const bytes = Buffer.from(signature, "base64url");
      bytes[0] = (bytes[0] ?? 0) ^ 0x01;
      const forged = `${header}.${payload}.${bytes.toString("base64url")}`;
      await expectLogin(`/property-profile/new-order?jwt=${forged}`, "/login?reason=invalid", forged);
    });

    it("says invalid for a genuine token of an organization that no longer exists", async () => {
      const gone = await createTenant(test.services, "Gone Mutual");
      const token = await tokenFor(gone.orgId);
      await test.services.db.deleteFrom("organizations").where("org_id", "=", gone.orgId).execute();
      await expectLogin(`/property-profile/new-order?jwt=${token}`, "/login?reason=invalid", token);
    });

    it("is wired into the service itself, before any page file is needed", async () => {
      await expectLogin("/property-profile/new-order", "/login?reason=missing");
      const response = await get("/property-profile/new-order", test.app);
      expect(response.statusCode).toBe(302);
      expect(response.headers.location).toBe("/login?reason=missing");
    });
  });

  it("takes only a positive whole number as the property id, and new-order as the new order page", async () => {
    for (const id of ["0", "007", "-3", "4.5", "abc", "1e3", "12345678901234567", "9007199254740993"]) {
      const response = await get(`/property-profile/${id}?jwt=${jwt}`);
      expect(response.statusCode, id).toBe(404);
    }
    expect((await get(`/property-profile/9007199254740991?jwt=${jwt}`)).statusCode).toBe(200);
    expect((await get(`/property-profile/new-order?jwt=${jwt}`)).body).toContain('data-page="new-order"');
  });

  describe("tells the pages that take a callback_url whether it is registered, before any work is done", () => {
    const registered = "https://core.insurer.example/hooks/";
    beforeAll(() => addCallbackPrefix(test.services.db, tenant.orgId, registered));

    const verdictOf = async (url: string) => {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      return /id="lotline-callback-check"/.test(response.body)
        ? inlineJson<{ callback_url: string }>(response.body, "lotline-callback-check").callback_url
        : undefined;
    };
    const withCallback = (path: string, callbackUrl: string) =>
      `${path}?jwt=${jwt}&address=12%20Elm%20St&callback_url=${encodeURIComponent(callbackUrl)}`;

    it.each(["/property-profile/new-order", "/embed/footprint-selection"])("on %s", async (path) => {
      expect(await verdictOf(withCallback(path, `${registered}policy/7?x=1`))).toBe("registered");
      expect(await verdictOf(withCallback(path, `  ${registered}policy/7  `))).toBe("registered");
      expect(await verdictOf(withCallback(path, "https://elsewhere.example/hooks/"))).toBe("not_registered");
      expect(await verdictOf(withCallback(path, "https://core.insurer.example/hooksmith"))).toBe("not_registered");
      expect(await verdictOf(withCallback(path, "not a url"))).toBe("not_registered");
      // As the page reads it: the first of repeated values.
      expect(
        await verdictOf(`${withCallback(path, registered)}&callback_url=${encodeURIComponent("https://x.example/")}`),
      ).toBe("registered");
      expect(await verdictOf(`${path}?jwt=${jwt}`)).toBeUndefined();
      expect(await verdictOf(withCallback(path, " "))).toBeUndefined();
    });

    it("judges by the organization's own prefixes", async () => {
      const url = withCallback("/property-profile/new-order", registered).replace(jwt, await tokenFor(unframed.orgId));
      expect(await verdictOf(url)).toBe("not_registered");
    });
  });

  describe("/login", () => {
    it("may be framed by anyone, holds no session, and tells the organization's origins with a live ticket", async () => {
      const ticket = issueLoginTicket(test.services.digester, tenant.orgId);
      const response = await get(`/login?reason=expired&org=${tenant.orgId}&ticket=${ticket}`);
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(response.body).toContain('data-page="login"');
      expect(directives(response)).toEqual({ ...BASE_POLICY, "frame-ancestors": ["*"] });
      expect(response.headers["x-frame-options"]).toBeUndefined();
      expect(response.headers["referrer-policy"]).toBe("no-referrer");
      expect(response.headers["cache-control"]).toBe("no-store");
      expect(inlineJson<LoginContext>(response.body, "lotline-login")).toEqual({
        reason: "expired",
        host_origins: [HOST_B, HOST_A].sort(),
      });
      expect(response.body).not.toContain("lotline-session");
      expect(response.body).not.toContain("Harbour");
    });

    it.each([
      ["/login?reason=missing", { reason: "missing", host_origins: [] }],
      ["/login?reason=invalid&org=org_doesnotexist00", { reason: "invalid", host_origins: [] }],
      ["/login?reason=whatever", { reason: "missing", host_origins: [] }],
      ["/login", { reason: "missing", host_origins: [] }],
    ])("%s tells the page %j", async (url, context) => {
      const response = await get(url);
      expect(response.statusCode).toBe(200);
      expect(inlineJson<LoginContext>(response.body, "lotline-login")).toEqual(context);
    });

    it("tells nothing about an organization without a live login ticket of its own", async () => {
      const { digester } = test.services;
      const ticket = () => issueLoginTicket(digester, tenant.orgId);
      for (const query of [
        `org=${tenant.orgId}`,
        `org=${tenant.orgId}&ticket=`,
        `org=${tenant.orgId}&ticket=garbage`,
        `org=${tenant.orgId}&ticket=${issueLoginTicket(digester, unframed.orgId)}`,
        `org=${tenant.orgId}&ticket=${issueLoginTicket(digester, tenant.orgId, Date.now() - 601_000)}`,
        `org=${tenant.orgId}&ticket=${ticket().replace(/^\d+/, (until) => String(Number(until) + 3600))}`,
        `org=${tenant.orgId}&ticket=${ticket()}&ticket=${ticket()}`,
      ]) {
        const response = await get(`/login?reason=expired&${query}`);
        expect(response.statusCode).toBe(200);
        expect(inlineJson<LoginContext>(response.body, "lotline-login"), query).toEqual({
          reason: "expired",
          host_origins: [],
        });
        for (const origin of [HOST_A, HOST_B]) expect(response.body).not.toContain(origin);
      }
    });

    it("tells no origins for an organization that registered none", async () => {
      const ticket = issueLoginTicket(test.services.digester, unframed.orgId);
      const response = await get(`/login?reason=expired&org=${unframed.orgId}&ticket=${ticket}`);
      expect(inlineJson<LoginContext>(response.body, "lotline-login").host_origins).toEqual([]);
    });
  });

  describe("/assets", () => {
    it("serves a built asset without a token, cached for a year as immutable", async () => {
      const response = await get("/assets/new-order-a1b2c3.js");
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe("console.log('new order');\n");
      expect(response.headers["content-type"]).toMatch(/^(text|application)\/javascript/);
      expect(response.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(response.headers["x-content-type-options"]).toBe("nosniff");
    });

    it("serves nothing else: unknown names, hidden files, other folders", async () => {
      for (const url of [
        "/assets/missing.js",
        "/assets/.secret",
        "/assets/../outside.txt",
        "/assets/%2e%2e/outside.txt",
      ]) {
        const response = await get(url);
        expect(response.statusCode, url).toBeGreaterThanOrEqual(400);
        expect(response.body, url).not.toContain("not an asset");
        expect(response.body, url).not.toContain("hidden");
      }
    });
  });

  it("reads each page once per process", async () => {
    const first = await get(`/embed/footprint-selection?jwt=${jwt}`);
    writeFileSync(join(dist, "footprint-selection.html"), "<html><head></head><body>rebuilt</body></html>");
    const second = await get(`/embed/footprint-selection?jwt=${jwt}`);
    expect(second.body).toContain('data-page="footprint-selection"');
    expect(second.body).not.toContain("rebuilt");
    expect(first.statusCode).toBe(200);
  });

  describe("before the pages are built", () => {
    let empty: string;
    let unbuilt: FastifyInstance;
    beforeAll(async () => {
      empty = mkdtempSync(join(tmpdir(), "lotline-unbuilt-"));
      unbuilt = await pagesApp(test.services, join(empty, "dist"));
    });
    afterAll(async () => {
      await unbuilt.close();
      rmSync(empty, { recursive: true, force: true });
    });

    it("answers 503 pages_not_built, saying to run npm run build, for every page and /login", async () => {
      const urls = [...pageUrls(jwt).map(([, url]) => url as string), "/login?reason=expired"];
      for (const url of urls) {
        const response = await get(url, unbuilt);
        expect(response.statusCode, url).toBe(503);
        expect(response.headers["content-type"]).toMatch(/^application\/problem\+json/);
        expect(response.json()).toMatchObject({ status: 503, code: "pages_not_built" });
        expect(response.json().detail).toContain("npm run build");
        expect(response.body).not.toContain(jwt);
      }
      expect((await get("/assets/new-order-a1b2c3.js", unbuilt)).statusCode).toBe(404);
    });

    it("serves the pages once they are built, without a restart", async () => {
      mkdirSync(join(empty, "dist", "assets"), { recursive: true });
      writeFileSync(join(empty, "dist", "login.html"), "<html><head></head><body>built later</body></html>");
      writeFileSync(join(empty, "dist", "assets", "late-ffff.css"), "body{}");
      const login = await get("/login", unbuilt);
      expect(login.statusCode).toBe(200);
      expect(login.body).toContain("built later");
      expect((await get("/assets/late-ffff.css", unbuilt)).statusCode).toBe(200);
    });
  });
});

describe("the embeddable pages with map imagery configured", () => {
  let test: TestApp;
  let pages: FastifyInstance;
  let dist: string;
  beforeAll(async () => {
    test = await createTestApp({
      LOTLINE_MAP_IMAGERY_URL: "https://tiles.imagery.example:8443/ortho/{z}/{x}/{y}.jpg",
      LOTLINE_MAP_IMAGERY_ATTRIBUTION: "Imagery © Example County GIS",
    });
    dist = fakeDist();
    pages = await pagesApp(test.services, dist);
  });
  afterAll(async () => {
    await pages.close();
    await test.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it("allows the imagery origin for images and fetches, and tells the page the template and attribution", async () => {
    const tenant = await createTenant(test.services);
    await addHostOrigin(test.services.db, tenant.orgId, HOST_A);
    const { token } = await issueIframeToken(test.services.keys, test.config, tenant.orgId);
    const response = await pages.inject({ url: `/property-profile/new-order?jwt=${token}` });
    expect(response.statusCode).toBe(200);
    expect(directives(response)).toEqual({
      ...BASE_POLICY,
      "img-src": ["'self'", "data:", "blob:", "https://tiles.imagery.example:8443"],
      "connect-src": ["'self'", "https://tiles.imagery.example:8443"],
      "frame-ancestors": [HOST_A],
    });
    expect(inlineJson<PageSession>(response.body, "lotline-session").map).toEqual({
      imagery_url: "https://tiles.imagery.example:8443/ortho/{z}/{x}/{y}.jpg",
      imagery_attribution: "Imagery © Example County GIS",
    });
  });
});

describe("the built pages' folder", () => {
  it("is the dist folder of the installed @lotline/web package", () => {
    const folder = builtPagesFolder();
    expect(basename(folder)).toBe("dist");
    expect(JSON.parse(readFileSync(join(dirname(folder), "package.json"), "utf8")).name).toBe("@lotline/web");
  });
});

describe("the service's request log", () => {
  it("never holds a page's jwt, whether the page opens or redirects", async () => {
    const test = await createTestApp();
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = { ...(serverLogger("info") as object), stream };
    const app = await buildApp(test.services, { logger });
    try {
      const tenant = await createTenant(test.services);
      const { token } = await issueIframeToken(test.services.keys, test.config, tenant.orgId);
      const expired = (
        await signJwt(test.services.keys, iframeTokenKind(test.config), tenant.orgId, { org_id: tenant.orgId }, -60)
      ).token;
      for (const jwt of [token, expired, "not-a-jwt"]) {
        const response = await app.inject({ url: `/property-profile/new-order?address=x&jwt=${jwt}&insured_name=y` });
        expect([200, 302, 503]).toContain(response.statusCode);
      }
      const log = lines.join("");
      expect(log).toContain("/property-profile/new-order?address=x&jwt=[redacted]&insured_name=y");
      for (const secret of [token, expired, "not-a-jwt"]) expect(log).not.toContain(secret);
    } finally {
      await app.close();
      await test.close();
    }
  });
});
