import type { CreateOrderBatchInput, OrderBatchCsv } from "./api-shapes.js";
import type { ApiRequest } from "./send-request.js";

/**
 * `POST /v1/order-batches` for `input`: orders as a JSON body, or a CSV book as a `text/csv` body with the batch's
 * `name` and `callback_url` as query parameters (the body is the file alone).
 */
export function orderBatchRequest(input: CreateOrderBatchInput, idempotencyKey: string): ApiRequest {
  const request: ApiRequest = {
    method: "POST",
    path: "/v1/order-batches",
    headers: { "idempotency-key": idempotencyKey },
  };
  if (!("csv" in input)) return { ...request, body: input };
  const { csv, name, callback_url } = input;
  return { ...request, query: { name, callback_url }, content: { type: "text/csv", data: csvBody(csv) } };
}

/** Strings and bytes go as they are (so they can be sent again); anything streamed as one web stream. */
function csvBody(csv: OrderBatchCsv): string | Uint8Array | ReadableStream<Uint8Array> {
  if (typeof csv === "string" || csv instanceof Uint8Array || csv instanceof ReadableStream) return csv;
  return streamOf(csv);
}

/**
 * An async iterable (Node's `fs.createReadStream`, a generator of lines) as the web stream fetch sends, read a
 * chunk at a time as fetch asks for more, so the file is never held whole.
 */
function streamOf(chunks: AsyncIterable<Uint8Array | string>): ReadableStream<Uint8Array> {
  const iterator = chunks[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await iterator.next();
      if (done) controller.close();
      else controller.enqueue(typeof value === "string" ? encoder.encode(value) : value);
    },
    async cancel(reason) {
      await iterator.return?.(reason);
    },
  });
}
