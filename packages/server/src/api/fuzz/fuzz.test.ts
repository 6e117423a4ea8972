import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { iframeTokenFor } from "../../page-api/test-page-api.js";
import { addCallbackPrefix } from "../../tenancy/callback-prefixes.js";
import { addCustomField } from "../../tenancy/custom-fields.js";
import { listProductMatrices } from "../../tenancy/product-matrices.js";
import { accessTokenFor, createTenant, createTestApp, type TestApp } from "../../test/test-app.js";
import type { FuzzTenant } from "./fuzz-requests.js";
import { describeStatuses, runFuzz } from "./run-fuzz.js";

/**
 * Property-based fuzzing of every operation of the OpenAPI document, its page API twins and the credential
 * endpoints, on the real app. `npm test` sends a few hundred requests per database; `npm run fuzz` sends
 * FUZZ_REQUESTS (10,000) and prints the answers by status. FUZZ_SEED replays a run.
 */
const COUNT = Number(process.env.FUZZ_REQUESTS ?? 400);
const HOOKS = "https://core.example.com/hooks/";
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);

describe("fuzzing the API from its OpenAPI document", () => {
  let test: TestApp;
  let credentials: FuzzTenant;
  beforeAll(async () => {
    test = await createTestApp();
    const tenant = await createTenant(test.services);
    const { db } = test.services;
    await addCustomField(db, tenant.orgId, { key: "agent", label: "Agent", type: "text", required: false });
    await addCustomField(db, tenant.orgId, { key: "year_built", label: "Year built", type: "number", required: false });
    await addCallbackPrefix(db, tenant.orgId, HOOKS);
    credentials = {
      bearer: await accessTokenFor(test, tenant),
      iframe: await iframeTokenFor(test, tenant.orgId),
      orgId: tenant.orgId,
      iframeKey: tenant.iframeKey,
      clientId: tenant.clientId,
      clientSecret: tenant.clientSecret,
      knownValues: {
        custom_fields: [{}, { agent: "A-7" }, { agent: "B. Broker", year_built: 1987 }],
        callback_url: [`${HOOKS}orders`, `${HOOKS}footprints?x=1`],
        product_matrix_id: (await listProductMatrices(db, tenant.orgId)).map((matrix) => matrix.product_matrix_id),
      },
    };
  });
  afterAll(() => test.close());

  it(
    `answers ${COUNT} generated requests with no 5xx, and refuses every one that breaks its schema`,
    async () => {
      const outcome = await runFuzz(test.app, credentials, { count: COUNT, seed: SEED });
      if (process.env.FUZZ_REQUESTS) {
        process.stdout.write(
          `fuzz on ${process.env.LOTLINE_TEST_DB}: ${outcome.sent} requests (${outcome.broken} breaking their ` +
            `schema), seed ${SEED}: ${describeStatuses(outcome.statuses)}\n`,
        );
      }
      expect(outcome.sent).toBe(COUNT);
      // Both halves are exercised: requests the schema accepts and requests that break it.
      expect(outcome.broken).toBeGreaterThan(COUNT / 4);
      expect(outcome.broken).toBeLessThan((COUNT * 3) / 4);
      expect(outcome.failures.slice(0, 5), `seed ${SEED} (FUZZ_SEED=${SEED} replays it)`).toEqual([]);
    },
    30_000 + COUNT * 20,
  );
});
