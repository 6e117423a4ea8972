import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Settings } from "../../config/config.js";
import { runCli } from "../../test/run-cli.js";
import { createTenant, createTestApp, type TestApp, type TestTenant } from "../../test/test-app.js";
import {
  accessTokenAt,
  iframeTokenAt,
  kidOf,
  me,
  type OtherProcess,
  otherProcess,
  pageSession,
  passReloadInterval,
  publishedKids,
} from "../revocation/test-deployment.js";

describe("lotline keys rotate and keys revoke, across processes", () => {
  let test: TestApp;
  let other: OtherProcess;
  let env: Settings;
  let tenant: TestTenant;
  beforeAll(async () => {
    test = await createTestApp({}, { listen: true });
    other = await otherProcess(test);
    env = { LOTLINE_DATABASE_URL: test.testDatabase.url, LOTLINE_PUBLIC_URL: test.config.publicUrl };
    tenant = await createTenant(test.services);
    // The deployment's first key, made before both processes sign at once (each would otherwise make its own).
    await test.services.keys.signingKey();
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await other.close();
    await test.close();
  });

  const processes = () => [test.url, other.url];

  /** Runs a command that must succeed with `--json`, and returns its one JSON object. */
  async function cli(argv: string[]): Promise<Record<string, unknown>> {
    const result = await runCli([...argv, "--json"], env);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout.trimEnd().split("\n")).toHaveLength(1);
    return JSON.parse(result.stdout) as Record<string, unknown>;
  }

  /** A data API token and an iframe token from each process, with each process's signing key loaded and in use. */
  async function tokensOfEveryProcess() {
    return Promise.all(
      processes().map(async (base) => ({
        access: await accessTokenAt(base, test, tenant),
        iframe: await iframeTokenAt(base, tenant.orgId, tenant.iframeKey),
      })),
    );
  }

  async function expectAccepted(tokens: { access: string; iframe: string }[]) {
    for (const base of processes()) {
      for (const { access, iframe } of tokens) {
        expect((await me(base, access)).status).toBe(200);
        expect((await pageSession(base, iframe)).status).toBe(200);
      }
    }
  }

  async function expectRefused(tokens: { access: string; iframe: string }[]) {
    for (const base of processes()) {
      for (const { access, iframe } of tokens) {
        const api = await me(base, access);
        expect(api.status).toBe(401);
        expect(api.headers.get("www-authenticate")).toContain('error="invalid_token"');
        const embed = await pageSession(base, iframe);
        expect(embed.status).toBe(401);
        expect(((await embed.json()) as { code: string }).code).toBe("session_ended");
      }
    }
  }

  it("rotate: the next token of every process has the new kid, and the old tokens keep working", async () => {
    const before = await tokensOfEveryProcess();
    const oldKid = kidOf(before[0]?.access ?? "");
    expect(before.flatMap(({ access, iframe }) => [kidOf(access), kidOf(iframe)])).toEqual(Array(4).fill(oldKid));

    const { kid } = await cli(["keys", "rotate"]);
    expect(kid).not.toBe(oldKid);
    // No process waits for its cache to expire: the very next token names the new key.
    const after = await tokensOfEveryProcess();
    expect(after.flatMap(({ access, iframe }) => [kidOf(access), kidOf(iframe)])).toEqual(Array(4).fill(kid));

    await expectAccepted([...before, ...after]);
    for (const base of processes()) expect(await publishedKids(base)).toEqual(expect.arrayContaining([oldKid, kid]));
  });

  it("revoke a retired key: gone from the JWKS and its tokens refused on every process within 30 s", async () => {
    const retiring = await tokensOfEveryProcess();
    const retiredKid = kidOf(retiring[0]?.access ?? "") as string;
    const { kid: currentKid } = await cli(["keys", "rotate"]);
    const current = await tokensOfEveryProcess();

    const revoked = await cli(["keys", "revoke", retiredKid]);
    expect(Object.keys(revoked).sort()).toEqual(["kid", "replaced", "revoked_at", "signing_kid"]);
    expect(revoked).toMatchObject({ kid: retiredKid, signing_kid: currentKid, replaced: false });
    expect(revoked.revoked_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    passReloadInterval();
    for (const base of processes()) {
      const published = await publishedKids(base);
      expect(published).not.toContain(retiredKid);
      expect(published).toContain(currentKid);
    }
    await expectRefused(retiring);
    await expectAccepted(current);
  });

  it("revoke the signing key: a new key signs the next token at once, and the revoked one's tokens are refused", async () => {
    const signed = await tokensOfEveryProcess();
    const signingKid = kidOf(signed[0]?.access ?? "") as string;

    const revoked = await cli(["keys", "revoke", signingKid]);
    expect(revoked).toMatchObject({ kid: signingKid, replaced: true });
    expect(revoked.signing_kid).not.toBe(signingKid);
    const next = await tokensOfEveryProcess();
    expect(next.flatMap(({ access, iframe }) => [kidOf(access), kidOf(iframe)])).toEqual(
      Array(4).fill(revoked.signing_kid),
    );

    passReloadInterval();
    for (const base of processes()) {
      const published = await publishedKids(base);
      expect(published).not.toContain(signingKid);
      expect(published).toContain(revoked.signing_kid);
    }
    await expectRefused(signed);
    await expectAccepted(next);
  });

  it("never leaves the deployment without a key: revoking the last one puts a new one in its place", async () => {
    await test.services.db.deleteFrom("signing_keys").where("retired_at", "is not", null).execute();
    const [only] = await test.services.db.selectFrom("signing_keys").select("kid").execute();
    expect(only).toBeDefined();

    const revoked = await cli(["keys", "revoke", only?.kid as string]);
    expect(revoked).toMatchObject({ kid: only?.kid, replaced: true });
    const rows = await test.services.db.selectFrom("signing_keys").select(["kid", "retired_at"]).execute();
    expect(rows).toEqual([{ kid: revoked.signing_kid, retired_at: null }]);
    passReloadInterval();
    for (const base of processes()) expect(await publishedKids(base)).toEqual([revoked.signing_kid]);
    expect(kidOf(await accessTokenAt(other.url, test, tenant))).toBe(revoked.signing_kid);
  });

  it("refuses an unknown kid or none with exit 2 and one line, changing nothing", async () => {
    const kids = await test.services.db.selectFrom("signing_keys").select("kid").execute();
    const unknown = await runCli(["keys", "revoke", "no-such-kid", "--json"], env);
    expect(unknown).toEqual({ code: 2, stdout: "", stderr: "lotline: no signing key no-such-kid\n" });
    // A thumbprint kid starts with "-" one time in 64: it is the kid, not an option.
    const dashed = await runCli(["keys", "revoke", "-no-such-kid", "--json"], env);
    expect(dashed).toEqual({ code: 2, stdout: "", stderr: "lotline: no signing key -no-such-kid\n" });
    const missing = await runCli(["keys", "revoke"], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^lotline: KID is required; usage: lotline keys revoke KID/);
    expect(await test.services.db.selectFrom("signing_keys").select("kid").execute()).toEqual(kids);
    expect((await runCli(["help"], env)).stdout).toContain("keys revoke KID [--json]");
  });
});
