import type { OrderBatchResult } from "./api-shapes.js";
import { ndjsonLines } from "./ndjson-lines.js";
import { openStream, type Transport } from "./send-request.js";
import { streamChunks } from "./stream-chunks.js";

/**
 * `GET /v1/order-batches/{batch_id}/results` as NDJSON, one result a line, parsed as the lines arrive. The request
 * goes when iteration starts, with the retries of any GET; `timeoutMs` then bounds the wait for the answer's head
 * and, after it, for each further chunk of the body (an idle timeout), so a book of 100,000 rows may take as long
 * as it takes while a stalled answer still fails.
 */
export async function* orderBatchResults(transport: Transport, path: string): AsyncGenerator<OrderBatchResult> {
  const body = await openStream(transport, {
    method: "GET",
    path,
    headers: { accept: "application/x-ndjson, application/problem+json" },
  });
  const chunks = streamChunks(body, transport.timeoutMs, `data API answer to GET ${path}`);
  // The server's types are its contract: each line is one result.
  for await (const line of ndjsonLines(chunks)) yield JSON.parse(line) as OrderBatchResult;
}
