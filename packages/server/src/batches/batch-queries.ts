import type { OrderBatch, OrderBatchList } from "@lotline/contract";
import type { Kysely, Selectable } from "kysely";
import type { OrderBatchTable, Schema } from "../db/schema.js";
import { InvalidInputError, NotFoundError } from "../errors.js";

/** A batch of the organization that finished its intake; another organization's, or one still arriving, is not found. */
export async function getBatch(db: Kysely<Schema>, orgId: string, batchId: string): Promise<OrderBatch> {
  return presentBatch(await findBatchRow(db, orgId, batchId));
}

export async function findBatchRow(
  db: Kysely<Schema>,
  orgId: string,
  batchId: string,
): Promise<Selectable<OrderBatchTable>> {
  const row = await db
    .selectFrom("order_batches")
    .selectAll()
    .where("org_id", "=", orgId)
    .where("batch_id", "=", batchId)
    .where("status", "<>", "intake")
    .executeTakeFirst();
  if (!row) throw new NotFoundError("order_batch_not_found", `no order batch ${batchId}`);
  return row;
}

/** The organization's batches, newest first, a page at a time; `next_cursor` fetches the next page. */
export async function listBatches(
  db: Kysely<Schema>,
  orgId: string,
  { limit, cursor }: { limit: number; cursor?: string },
): Promise<OrderBatchList> {
  let query = db.selectFrom("order_batches").selectAll().where("org_id", "=", orgId).where("status", "<>", "intake");
  if (cursor !== undefined) {
    const [createdAt, batchId] = decodeCursor(cursor);
    query = query.where((eb) =>
      eb.or([
        eb("created_at", "<", createdAt),
        eb.and([eb("created_at", "=", createdAt), eb("batch_id", "<", batchId)]),
      ]),
    );
  }
  const rows = await query
    .orderBy("created_at", "desc")
    .orderBy("batch_id", "desc")
    .limit(limit + 1)
    .execute();
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    data: page.map(presentBatch),
    next_cursor:
      rows.length > limit && last
        ? Buffer.from(JSON.stringify([last.created_at, last.batch_id])).toString("base64url")
        : null,
  };
}

function presentBatch(row: Selectable<OrderBatchTable>): OrderBatch {
  return {
    batch_id: row.batch_id,
    name: row.name,
    status: row.status === "complete" ? "complete" : "processing",
    rows: row.rows,
    accepted: row.accepted,
    rejected: row.rejected,
    processing: row.pending,
    complete: row.accepted - row.pending - row.failed,
    failed: row.failed,
    created_at: new Date(row.created_at).toISOString(),
    completed_at: row.completed_at === null ? null : new Date(row.completed_at).toISOString(),
  };
}

/** A batch id as `newId` makes them. */
const ID = /^bat_[a-z0-9]{1,64}$/;

function decodeCursor(cursor: string): [number, string] {
  try {
    const [createdAt, batchId] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    // Only what listBatches writes: a forged cursor must not reach the database as a value it cannot compare.
    if (Number.isSafeInteger(createdAt) && createdAt >= 0 && typeof batchId === "string" && ID.test(batchId)) {
      return [createdAt, batchId];
    }
  } catch {
    // answered below
  }
  throw new InvalidInputError("invalid_cursor", "the cursor is not one this API returned");
}
