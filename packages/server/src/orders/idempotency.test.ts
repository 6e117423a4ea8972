import { MAX_JSON_DEPTH } from "@lotline/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DomainError, InvalidInputError } from "../errors.js";
import { createTenant, createTestApp, type TestApp } from "../test/test-app.js";
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  IDEMPOTENCY_KEY_TTL_MS,
  IdempotencyConflictError,
  releaseIdempotencyKey,
  requestHash,
} from "./idempotency.js";

describe("idempotency keys", () => {
  let test: TestApp;
  let orgId: string;
  let otherOrgId: string;
  beforeAll(async () => {
    test = await createTestApp();
    orgId = (await createTenant(test.services)).orgId;
    otherOrgId = (await createTenant(test.services)).orgId;
  });
  afterAll(() => test.close());

  const codeOf = async (work: Promise<unknown>) =>
    work.then(
      () => "no error",
      (error: unknown) => (error instanceof DomainError ? error.code : String(error)),
    );

  it("hashes bodies without regard to key order", () => {
    expect(requestHash({ a: 1, b: { c: [1, 2], d: "x" } })).toBe(requestHash({ b: { d: "x", c: [1, 2] }, a: 1 }));
    expect(requestHash({ a: 1 })).not.toBe(requestHash({ a: 2 }));
  });

  it("hashes a body nested as deep as the API allows, and refuses a deeper one instead of overflowing the stack", () => {
    const nested = (depth: number): unknown => {
      let value: unknown = "leaf";
      for (let level = 0; level < depth; level++) value = level % 2 ? [value] : { a: value };
      return value;
    };
    expect(requestHash(nested(MAX_JSON_DEPTH))).toMatch(/^[\w-]{43}$/);
    for (const depth of [MAX_JSON_DEPTH + 1, 5_000, 100_000]) {
      expect(() => requestHash(nested(depth))).toThrow(InvalidInputError);
    }
  });

  it("answers 409 while the first request runs, replays once it completed, 422 for another body", async () => {
    const db = test.services.db;
    const hash = requestHash({ address: "1 Main St" });
    expect(await claimIdempotencyKey(db, orgId, "k-1", hash)).toBeUndefined();
    const running = claimIdempotencyKey(db, orgId, "k-1", hash);
    await expect(running).rejects.toBeInstanceOf(IdempotencyConflictError);
    expect(await codeOf(claimIdempotencyKey(db, orgId, "k-1", hash))).toBe("idempotency_key_in_use");

    await db.transaction().execute((trx) => completeIdempotencyKey(trx, orgId, "k-1", 202, { order_id: "ord_1" }));
    expect(await claimIdempotencyKey(db, orgId, "k-1", hash)).toEqual({
      replayed: true,
      statusCode: 202,
      body: { order_id: "ord_1" },
    });
    expect(await codeOf(claimIdempotencyKey(db, orgId, "k-1", requestHash({ address: "2 Main St" })))).toBe(
      "idempotency_key_reused",
    );
  });

  it("scopes keys per organization", async () => {
    const db = test.services.db;
    const hash = requestHash({ x: 1 });
    expect(await claimIdempotencyKey(db, orgId, "shared", hash)).toBeUndefined();
    expect(await claimIdempotencyKey(db, otherOrgId, "shared", requestHash({ x: 2 }))).toBeUndefined();
  });

  it("frees a key whose request failed, takes over one abandoned by a crashed request, forgets it after 24 hours", async () => {
    const db = test.services.db;
    const hash = requestHash({ y: 1 });
    const start = Date.now();
    expect(await claimIdempotencyKey(db, orgId, "k-2", hash, start)).toBeUndefined();
    await releaseIdempotencyKey(db, orgId, "k-2");
    expect(await claimIdempotencyKey(db, orgId, "k-2", requestHash({ y: 2 }), start)).toBeUndefined();

    expect(await claimIdempotencyKey(db, orgId, "k-3", hash, start)).toBeUndefined();
    expect(await claimIdempotencyKey(db, orgId, "k-3", hash, start + 31_000)).toBeUndefined();

    expect(await claimIdempotencyKey(db, orgId, "k-4", hash, start)).toBeUndefined();
    await db.transaction().execute((trx) => completeIdempotencyKey(trx, orgId, "k-4", 202, { order_id: "ord_4" }));
    const later = start + IDEMPOTENCY_KEY_TTL_MS + 1;
    expect(await claimIdempotencyKey(db, orgId, "k-4", requestHash({ y: 3 }), later)).toBeUndefined();
  });
});
