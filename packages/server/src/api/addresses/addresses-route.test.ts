import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importFile } from "../../geo/import/import-file.js";
import { accessTokenFor, createTenant, createTestApp, type TestApp } from "../../test/test-app.js";

/** Streets the autocomplete must tell apart: MAIN and MAPLE both start with `MA`, ELM and GORE do not. */
const ADDRESSES = [
  ["120 Gore Street", -71.0834, 42.372],
  ["12 Main Street", -71.09, 42.36],
  ["125 Main Street", -71.0905, 42.3605],
  ["10-14 Main Street", -71.0895, 42.3595],
  ["13 Main Street", -71.091, 42.361],
  ["12 Maple Avenue", -71.1, 42.37],
  ["1200 Maple Avenue", -71.101, 42.371],
  ["7 Maple Avenue", -71.102, 42.372],
  ["12 Elm Street", -71.11, 42.38],
] as const;

describe("GET /v1/addresses?q= (address search and autocomplete)", () => {
  let test: TestApp;
  let token: string;
  let folder: string;

  beforeAll(async () => {
    test = await createTestApp();
    token = await accessTokenFor(test, await createTenant(test.services));
    folder = mkdtempSync(join(tmpdir(), "lotline-addresses-"));
    const csv = join(folder, "addresses.csv");
    writeFileSync(csv, ["address,lon,lat", ...ADDRESSES.map(([text, lon, lat]) => `${text},${lon},${lat}`)].join("\n"));
    const summary = await importFile(test.services.database, {
      kind: "addresses",
      file: csv,
      name: "Test addresses",
      addressColumn: "address",
      read: { lonColumn: "lon", latColumn: "lat" },
      city: "Cambridge",
      state: "MA",
    });
    expect(summary).toMatchObject({ read: ADDRESSES.length, imported: ADDRESSES.length, rejected: 0 });
  });
  afterAll(async () => {
    await test?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  /** The search as a client makes it: with a valid bearer token unless `authorization` says otherwise (`null`: none). */
  const search = (query: Record<string, string>, authorization: string | null = `Bearer ${token}`) =>
    test.app.inject({
      method: "GET",
      url: "/v1/addresses",
      query,
      headers: authorization === null ? {} : { authorization },
    });

  interface Candidate {
    address_id: number;
    address: string;
    score: number;
    location: { lat: number; lon: number };
    parcel_id: number | null;
  }
  async function found(query: Record<string, string>): Promise<Candidate[]> {
    const response = await search(query);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^application\/json/);
    const body = response.json() as { data: Candidate[] };
    expect(Object.keys(body)).toEqual(["data"]);
    return body.data;
  }

  async function expectBadRequest(query: Record<string, string>) {
    const response = await search(query);
    expect(response.statusCode).toBe(400);
    expect(response.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(response.json()).toMatchObject({ status: 400, code: expect.any(String), detail: expect.any(String) });
  }

  it("answers 401 problem+json without a bearer token, and does not search", async () => {
    const response = await search({ q: "120 Gore Street" }, null);
    expect(response.statusCode).toBe(401);
    expect(response.headers["www-authenticate"]).toMatch(/^Bearer/);
    expect(response.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(response.body).not.toContain("GORE");
    expect((await search({ q: "120 Gore Street" }, "Bearer not-a-token")).statusCode).toBe(401);
  });

  it("finds a full address first, with score 1, in the contract's shape", async () => {
    const data = await found({ q: "120 Gore Street, Cambridge, MA" });
    expect(data.length).toBeGreaterThanOrEqual(1);
    const [first] = data;
    expect(first).toEqual({
      address_id: expect.any(Number),
      address: "120 GORE ST, CAMBRIDGE, MA",
      score: 1,
      location: { lat: 42.372, lon: -71.0834 },
      parcel_id: null,
    });
    expect(Object.keys(first ?? {}).sort()).toEqual(["address", "address_id", "location", "parcel_id", "score"]);
    for (const candidate of data) {
      expect(candidate.score).toBeGreaterThanOrEqual(0);
      expect(candidate.score).toBeLessThanOrEqual(1);
    }
  });

  it("completes a half-typed `12 ma` to MAIN and MAPLE addresses whose number starts with or spans 12", async () => {
    const data = await found({ q: "12 ma", limit: "20" });
    const addresses = data.map((candidate) => candidate.address);
    expect(addresses).toEqual(
      expect.arrayContaining([
        "12 MAIN ST, CAMBRIDGE, MA",
        "125 MAIN ST, CAMBRIDGE, MA",
        "10-14 MAIN ST, CAMBRIDGE, MA",
        "12 MAPLE AVE, CAMBRIDGE, MA",
        "1200 MAPLE AVE, CAMBRIDGE, MA",
      ]),
    );
    expect(addresses).toHaveLength(5);
    // Neither another number on those streets, nor number 12 on a street not starting with MA.
    expect(addresses).not.toContain("13 MAIN ST, CAMBRIDGE, MA");
    expect(addresses).not.toContain("7 MAPLE AVE, CAMBRIDGE, MA");
    expect(addresses).not.toContain("12 ELM ST, CAMBRIDGE, MA");
    // Completions of half-typed text are offered, not claimed as exact matches.
    for (const candidate of data) expect(candidate.score).toBeLessThan(1);
  });

  it("honours limit from 1 to 20", async () => {
    expect(await found({ q: "12 ma", limit: "1" })).toHaveLength(1);
    expect(await found({ q: "12 ma", limit: "2" })).toHaveLength(2);
    expect(await found({ q: "12 ma", limit: "20" })).toHaveLength(5);
    // Without limit: at most 5.
    expect((await found({ q: "1" })).length).toBeLessThanOrEqual(5);
  });

  it("answers 400 problem+json for limit 0 or 21, or a limit that is not a number", async () => {
    await expectBadRequest({ q: "12 ma", limit: "0" });
    await expectBadRequest({ q: "12 ma", limit: "21" });
    await expectBadRequest({ q: "12 ma", limit: "many" });
  });

  it("answers 400 problem+json when q is missing or empty", async () => {
    await expectBadRequest({});
    await expectBadRequest({ q: "" });
  });

  it("finds nothing, with 200 and an empty list, for an address not imported", async () => {
    expect(await found({ q: "999 Nowhere Boulevard, Springfield, IL" })).toEqual([]);
  });
});
