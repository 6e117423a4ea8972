/**
 * A book of orders for `POST /v1/order-batches`, as a client would send it, and what its results must say: a few
 * rows are bad on purpose, and every fiftieth row has a callback of its own.
 */
export interface OrderBook {
  name: string;
  rows: number;
  /** The bad rows, each with the reason its result gives. */
  rejected: ReadonlyMap<number, string>;
  /** The batch's own callback. */
  callbackUrl: string;
  /** The good rows with a callback of their own, in row order. */
  ownCallbackRows: readonly number[];
  /** A fresh request for each attempt: a streamed body can be sent once. */
  request(): { path: string; init: RequestInit };
}

/** Every this many rows, a row has a callback of its own. */
const OWN_CALLBACK_EVERY = 50;

/** A CSV body goes out in pieces this many rows long, as over a slow link: an upload takes a few hundred ms. */
const PIECE_ROWS = 100;
const PIECE_PAUSE_MS = 20;

/** Three transactions of rows at the server (500 a transaction), so a kill can land between two. */
const CSV_ROWS = 1100;
const CSV_BAD_ROWS: ReadonlyMap<number, { cells: Record<string, string>; reason: string }> = new Map<
  number,
  { cells: Record<string, string>; reason: string }
>([
  [3, { cells: { address: "" }, reason: "address_or_location_required" }],
  [501, { cells: { premium_amount: "lots" }, reason: "not_a_number" }],
  [777, { cells: { renewal_date: "2027-02-30" }, reason: "invalid_renewal_date" }],
  [1050, { cells: { callback_url: "http://elsewhere.example/hook" }, reason: "callback_url_not_registered" }],
]);

/** Small: its intake is one transaction of rows and the one that opens the batch. */
const JSON_ROWS = 300;
const JSON_BAD_ROWS: ReadonlyMap<number, { order: Record<string, unknown>; reason: string }> = new Map<
  number,
  { order: Record<string, unknown>; reason: string }
>([
  [2, { order: { premium_amount: "12" }, reason: "invalid_type" }],
  [150, { order: { surprise: true }, reason: "unknown_field" }],
  [300, { order: { address: undefined }, reason: "address_or_location_required" }],
]);

const CSV_COLUMNS = ["address", "external_id", "premium_amount", "renewal_date", "callback_url"] as const;

/** A CSV book of 1,100 rows over `addresses`, streamed in pieces. */
export function csvBook(name: string, addresses: readonly string[], hookUrl: string): OrderBook {
  const rows = CSV_ROWS;
  const lines = Array.from({ length: rows }, (_, k) => {
    const row = k + 1;
    const cells: Record<string, string> = {
      address: addresses[row % addresses.length] ?? "",
      external_id: `${name}-${row}`,
      premium_amount: "",
      renewal_date: "",
      callback_url: row % OWN_CALLBACK_EVERY === 0 ? `${hookUrl}rows/${name}/${row}` : "",
      ...CSV_BAD_ROWS.get(row)?.cells,
    };
    return `${CSV_COLUMNS.map((column) => cells[column]).join(",")}\r\n`;
  });
  const callbackUrl = `${hookUrl}batches/${name}`;
  return {
    name,
    rows,
    rejected: reasons(CSV_BAD_ROWS),
    callbackUrl,
    ownCallbackRows: ownCallbackRows(rows, CSV_BAD_ROWS),
    request: () => ({
      path: `/v1/order-batches?name=${name}&callback_url=${encodeURIComponent(callbackUrl)}`,
      init: {
        method: "POST",
        headers: { "content-type": "text/csv" },
        body: ReadableStream.from(inPieces(`${CSV_COLUMNS.join(",")}\r\n`, lines)),
        duplex: "half",
      },
    }),
  };
}

/** A JSON book of 300 rows over `addresses`. */
export function jsonBook(name: string, addresses: readonly string[], hookUrl: string): OrderBook {
  const rows = JSON_ROWS;
  const orders = Array.from({ length: rows }, (_, k) => {
    const row = k + 1;
    return {
      address: addresses[row % addresses.length],
      external_id: `${name}-${row}`,
      ...(row % OWN_CALLBACK_EVERY === 0 ? { callback_url: `${hookUrl}rows/${name}/${row}` } : {}),
      ...JSON_BAD_ROWS.get(row)?.order,
    };
  });
  const callbackUrl = `${hookUrl}batches/${name}`;
  const body = JSON.stringify({ name, callback_url: callbackUrl, orders });
  return {
    name,
    rows,
    rejected: reasons(JSON_BAD_ROWS),
    callbackUrl,
    ownCallbackRows: ownCallbackRows(rows, JSON_BAD_ROWS),
    request: () => ({
      path: "/v1/order-batches",
      init: { method: "POST", headers: { "content-type": "application/json" }, body },
    }),
  };
}

function reasons(bad: ReadonlyMap<number, { reason: string }>): Map<number, string> {
  return new Map([...bad].map(([row, { reason }]) => [row, reason]));
}

function ownCallbackRows(rows: number, bad: ReadonlyMap<number, unknown>): number[] {
  return Array.from({ length: rows }, (_, k) => k + 1).filter((row) => row % OWN_CALLBACK_EVERY === 0 && !bad.has(row));
}

async function* inPieces(header: string, lines: readonly string[]): AsyncGenerator<Uint8Array> {
  const encoder = new TextEncoder();
  yield encoder.encode(header);
  for (let start = 0; start < lines.length; start += PIECE_ROWS) {
    const piece = lines.slice(start, start + PIECE_ROWS);
    yield encoder.encode(piece.join(""));
    await new Promise((resolve) => setTimeout(resolve, PIECE_PAUSE_MS));
  }
}
