import { createHash, randomUUID } from "node:crypto";
import type { Readable } from "node:stream";
import { Transform } from "node:stream";
import type { OrderBatchAccepted } from "@lotline/contract";
import type { Kysely, Transaction } from "kysely";
import type { Database } from "../db/database.js";
import type { Schema } from "../db/schema.js";
import { InvalidInputError } from "../errors.js";
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  IdempotencyConflictError,
  releaseIdempotencyKey,
  requestHash,
} from "../orders/idempotency.js";
import { loadOrderRules } from "../orders/order-rules.js";
import { csvOrderRows } from "./csv-order-rows.js";
import { intakeBatch } from "./intake-batch.js";
import { jsonOrderRows } from "./json-order-rows.js";
import { ORDER_BATCH_ROWS_MAX } from "./row-limit.js";

/** What placing a batch answers: a new batch (202), or the stored answer to an earlier request with the same key. */
export type PlacedBatch =
  | { replayed: false; statusCode: 202; body: OrderBatchAccepted }
  | { replayed: true; statusCode: number; body: unknown };

export interface BatchOptions {
  orgId: string;
  name: string | null;
  callbackUrl: string | null;
  idempotencyKey?: string;
  rowLimit?: number;
}

/**
 * Places a JSON batch. With an `Idempotency-Key` it behaves as a single order's: the same key and body replay the
 * first answer, another body is refused, a key still being answered conflicts.
 */
export async function placeJsonBatch(
  database: Pick<Database, "db" | "dialect" | "syncLog">,
  options: BatchOptions,
  orders: readonly unknown[],
): Promise<PlacedBatch> {
  const { db } = database;
  const rules = await loadOrderRules(db, options.orgId);
  const intake = (inTransaction?: (trx: Transaction<Schema>, answer: OrderBatchAccepted) => Promise<void>) =>
    intakeBatch(database, {
      orgId: options.orgId,
      name: options.name,
      callbackUrl: options.callbackUrl,
      rules,
      source: jsonOrderRows(orders),
      rowLimit: options.rowLimit ?? ORDER_BATCH_ROWS_MAX,
      ...(inTransaction ? { inTransaction } : {}),
    });
  const key = options.idempotencyKey;
  if (key === undefined) return { replayed: false, statusCode: 202, body: await intake() };
  const hash = requestHash({ kind: "order-batch", name: options.name, callback_url: options.callbackUrl, orders });
  const replay = await claimIdempotencyKey(db, options.orgId, key, hash);
  if (replay) return replay;
  try {
    const body = await intake((trx, answer) => completeIdempotencyKey(trx, options.orgId, key, 202, answer));
    return { replayed: false, statusCode: 202, body };
  } catch (error) {
    await releaseIdempotencyKey(db, options.orgId, key);
    throw error;
  }
}

/**
 * Places a CSV batch read from `body` as it streams. A stream can be read once, so an `Idempotency-Key` is handled
 * in two ways: a key already answered has the body hashed (nothing written) and compared with the first request's;
 * a new key is claimed before reading, kept alive by every chunk of a long intake, and given the body's hash in the
 * transaction that opens the batch.
 */
export async function placeCsvBatch(
  database: Pick<Database, "db" | "dialect" | "syncLog">,
  options: BatchOptions,
  body: Readable,
): Promise<PlacedBatch> {
  const { db } = database;
  const rules = await loadOrderRules(db, options.orgId);
  const hash = createHash("sha256").update(
    `order-batch text/csv\n${JSON.stringify([options.name, options.callbackUrl])}\n`,
  );
  const hashing = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  body.on("error", (error) => hashing.destroy(error));
  body.pipe(hashing);
  const key = options.idempotencyKey;
  const intake = (extra: Pick<Parameters<typeof intakeBatch>[1], "inTransaction" | "onChunk"> = {}) =>
    intakeBatch(database, {
      orgId: options.orgId,
      name: options.name,
      callbackUrl: options.callbackUrl,
      rules,
      source: csvOrderRows(hashing, rules.customFields),
      rowLimit: options.rowLimit ?? ORDER_BATCH_ROWS_MAX,
      ...extra,
    });
  if (key === undefined) return { replayed: false, statusCode: 202, body: await intake() };

  const answered = await answeredKey(db, options.orgId, key);
  if (answered) {
    for await (const _ of hashing) {
      // read to the end: only the hash of the whole body can say whether this is the same request
    }
    if (hash.digest("base64url") !== answered.request_hash) {
      throw new InvalidInputError(
        "idempotency_key_reused",
        "this Idempotency-Key was used with a different request body; use a new key for a new request",
      );
    }
    return { replayed: true, statusCode: answered.status_code, body: JSON.parse(answered.response) };
  }
  // A hash no body has: a retry arriving while this intake runs finds the key running (409), never a match.
  const replay = await claimIdempotencyKey(db, options.orgId, key, `intake:${randomUUID()}`);
  if (replay)
    throw new IdempotencyConflictError("idempotency_key_in_use", "a request with this Idempotency-Key is running");
  try {
    const accepted = await intake({
      onChunk: (trx) => keepKeyClaimed(trx, options.orgId, key),
      inTransaction: async (trx, answer) => {
        await trx
          .updateTable("idempotency_keys")
          .set({ request_hash: hash.digest("base64url") })
          .where("org_id", "=", options.orgId)
          .where("key", "=", key)
          .execute();
        await completeIdempotencyKey(trx, options.orgId, key, 202, answer);
      },
    });
    return { replayed: false, statusCode: 202, body: accepted };
  } catch (error) {
    await releaseIdempotencyKey(db, options.orgId, key);
    throw error;
  }
}

/** The stored answer under `key`, if the key was answered and has not expired. */
async function answeredKey(db: Kysely<Schema>, orgId: string, key: string) {
  const row = await db
    .selectFrom("idempotency_keys")
    .select(["request_hash", "status_code", "response", "expires_at"])
    .where("org_id", "=", orgId)
    .where("key", "=", key)
    .executeTakeFirst();
  if (!row || row.expires_at <= Date.now() || row.status_code === null || row.response === null) return undefined;
  return { request_hash: row.request_hash, status_code: row.status_code, response: row.response };
}

/** A key looks abandoned when its request has not touched it for a while: a long intake touches it every chunk. */
async function keepKeyClaimed(trx: Transaction<Schema>, orgId: string, key: string): Promise<void> {
  await trx
    .updateTable("idempotency_keys")
    .set({ created_at: Date.now() })
    .where("org_id", "=", orgId)
    .where("key", "=", key)
    .where("status_code", "is", null)
    .execute();
}
