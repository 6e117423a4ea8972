import { Readable } from "node:stream";
import {
  OrderBatch,
  OrderBatchAccepted,
  OrderBatchList,
  OrderBatchRequest,
  OrderBatchResult,
  Problem,
} from "@lotline/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { Type } from "typebox";
import { getBatch, listBatches } from "../../batches/batch-queries.js";
import { batchResults, resultCsvLine, resultsCsvHeader } from "../../batches/batch-results.js";
import { type PlacedBatch, placeCsvBatch, placeJsonBatch } from "../../batches/place-order-batch.js";
import { BatchTooLargeError } from "../../batches/row-limit.js";
import { HttpProblem } from "../../http/problem.js";
import { wantsCsv } from "../../http/wants-csv.js";
import type { Services } from "../../services.js";
import { IdempotencyKeyHeaders, idempotencyKeyOf } from "../orders/place-order-reply.js";

/** A JSON batch of 100,000 orders is tens of megabytes; a CSV batch streams and has no byte limit but its rows. */
const JSON_BATCH_BYTES = 128 * 1024 * 1024;

const BatchQuery = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  callback_url: Type.Optional(Type.String({ format: "uri", maxLength: 2000 })),
});

const ListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
});

const BatchParams = Type.Object({ batch_id: Type.String({ minLength: 1, maxLength: 100 }) });

const CSV_DESCRIPTION =
  "A header row, then one order per row. Columns: address, lat, lon, external_id, secondary_external_id, " +
  "insured_name, renewal_date, premium_amount, product_matrix_id, callback_url, and custom.<key> for the " +
  "organization's custom fields; other columns are ignored and listed in ignored_columns. A file with neither an " +
  "address column nor lat and lon columns is refused (422 batch_location_columns_missing).";

/**
 * `POST /v1/order-batches`, `GET /v1/order-batches`, `GET /v1/order-batches/{batch_id}` and its `/results`. In a
 * scope of their own: only here does `text/csv` reach a route, as the raw stream the intake reads.
 */
export async function registerOrderBatchesRoutes(app: FastifyInstance, services: Services): Promise<void> {
  await app.register(async (scope) => {
    // The body stays unread here: the route streams it through the CSV parser, so memory stays flat at any size.
    scope.addContentTypeParser("text/csv", (_request, _payload, done) => done(null, undefined));
    registerRoutes(scope, services);
  });
}

function registerRoutes(app: FastifyInstance, services: Services): void {
  const { db } = services;

  app.post<{ Body: OrderBatchRequest | undefined; Querystring: { name?: string; callback_url?: string } }>(
    "/order-batches",
    {
      bodyLimit: JSON_BATCH_BYTES,
      schema: {
        summary: "Place a batch of orders: a whole book at once",
        description:
          `Up to 100,000 rows, as CSV (${CSV_DESCRIPTION}) or as JSON. Every row is checked as POST /v1/orders ` +
          "checks an order; a bad row is rejected alone (its row number, 1 for the first data row, the field and a " +
          "reason) while the good ones become orders, processed like any other. Past the row limit, 413 " +
          "batch_too_large and nothing is kept. name and callback_url may also be given as query parameters; the " +
          "batch's callback_url (under a registered prefix, else 422 for the whole request) receives one " +
          "order-batch.complete webhook when every order settled. Idempotency-Key works as for POST /v1/orders.",
        tags: ["order-batches"],
        security: [{ bearer: [] }],
        headers: IdempotencyKeyHeaders,
        querystring: BatchQuery,
        body: {
          content: {
            "application/json": { schema: OrderBatchRequest },
            "text/csv": { schema: { description: CSV_DESCRIPTION } },
          },
        },
        response: { 202: OrderBatchAccepted, "4xx": Problem, 503: Problem },
      },
    },
    async (request, reply) => {
      const placed = await placeBatch(services, request).catch((error: unknown) => {
        if (error instanceof BatchTooLargeError) {
          throw new HttpProblem(413, error.code, "Content Too Large", error.message);
        }
        throw error;
      });
      if (placed.replayed) {
        return reply.code(placed.statusCode).header("idempotent-replayed", "true").send(placed.body);
      }
      services.nudgeWorkers();
      return reply.code(202).header("location", `/v1/order-batches/${placed.body.batch_id}`).send(placed.body);
    },
  );

  app.get<{ Querystring: { limit?: number; cursor?: string } }>(
    "/order-batches",
    {
      schema: {
        summary: "The organization's order batches, newest first",
        tags: ["order-batches"],
        security: [{ bearer: [] }],
        querystring: ListQuery,
        response: { 200: OrderBatchList, "4xx": Problem },
      },
    },
    async (request) =>
      listBatches(db, request.caller.orgId, {
        limit: request.query.limit ?? 20,
        ...(request.query.cursor ? { cursor: request.query.cursor } : {}),
      }),
  );

  app.get<{ Params: { batch_id: string } }>(
    "/order-batches/:batch_id",
    {
      schema: {
        summary: "An order batch and how far its orders have got",
        tags: ["order-batches"],
        security: [{ bearer: [] }],
        params: BatchParams,
        response: { 200: OrderBatch, "4xx": Problem },
      },
    },
    async (request) => getBatch(db, request.caller.orgId, request.params.batch_id),
  );

  app.get<{ Params: { batch_id: string } }>(
    "/order-batches/:batch_id/results",
    {
      schema: {
        summary: "One line per input row, in row order: its order and the property's headline figures",
        description:
          "Streams NDJSON (application/x-ndjson, one OrderBatchResult a line) by default, CSV with Accept: text/csv " +
          "(a header row, then the same fields in the same order). In the CSV a text cell starting with =, +, -, @, a " +
          "tab or a carriage return gets a leading ' so a spreadsheet shows it rather than runs it as a formula; " +
          "numbers are never prefixed. Rows still processing say so; read again when the batch is complete.",
        tags: ["order-batches"],
        security: [{ bearer: [] }],
        params: BatchParams,
        response: {
          200: {
            description: "One result per input row.",
            content: {
              "application/x-ndjson": { schema: OrderBatchResult },
              "text/csv": { schema: { type: "string" } },
            },
          },
          "4xx": Problem,
        },
      },
    },
    async (request, reply) => {
      const results = await batchResults(db, request.caller.orgId, request.params.batch_id);
      const csv = wantsCsv(request);
      const lines = async function* () {
        if (csv) yield resultsCsvHeader();
        for await (const result of results) yield csv ? resultCsvLine(result) : `${JSON.stringify(result)}\n`;
      };
      return reply
        .code(200)
        .type(csv ? "text/csv; charset=utf-8" : "application/x-ndjson")
        .send(Readable.from(lines()));
    },
  );
}

async function placeBatch(
  services: Services,
  request: FastifyRequest<{
    Body: OrderBatchRequest | undefined;
    Querystring: { name?: string; callback_url?: string };
  }>,
): Promise<PlacedBatch> {
  const key = idempotencyKeyOf(request);
  const rowLimit = services.config.batchRowsMax;
  const common = { orgId: request.caller.orgId, rowLimit, ...(key === undefined ? {} : { idempotencyKey: key }) };
  const body = request.body;
  if (body === undefined) {
    return placeCsvBatch(
      services.database,
      { ...common, name: request.query.name ?? null, callbackUrl: request.query.callback_url ?? null },
      request.raw,
    );
  }
  if (body.orders.length > rowLimit) {
    throw new HttpProblem(413, "batch_too_large", "Content Too Large", new BatchTooLargeError(rowLimit).message);
  }
  return placeJsonBatch(
    services.database,
    {
      ...common,
      name: body.name ?? request.query.name ?? null,
      callbackUrl: body.callback_url ?? request.query.callback_url ?? null,
    },
    body.orders,
  );
}
