import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { Transform } from "node:stream";
import { SingleBar } from "cli-progress";
import { placeCsvBatch } from "../../batches/place-order-batch.js";
import { requireOrganization } from "../../tenancy/organizations.js";
import type { Command } from "../command.js";
import { type CliIo, processIo, UsageError } from "../io.js";

/**
 * `lotline orders import FILE.csv --org ORG_ID`: a spreadsheet an operator was sent, placed as one order batch
 * exactly as `POST /v1/order-batches` would take it → the batch's answer (`batch_id`, counts, first rejections).
 */
const ordersImport: Command = {
  usage: "orders import FILE.csv --org ORG_ID [--name NAME] [--callback-url URL] [--json]",
  options: { org: { type: "string" }, name: { type: "string" }, "callback-url": { type: "string" } },
  required: ["org"],
  positional: "file",
  run: async ({ values, services, io }) => {
    const file = values.file as string;
    const size = await stat(file).then(
      (found) => (found.isFile() ? found.size : undefined),
      () => undefined,
    );
    if (size === undefined) throw new UsageError(`${file}: no such file`);
    const orgId = values.org as string;
    await requireOrganization(services.db, orgId);
    const progress = progressBar(io, size);
    try {
      const placed = await placeCsvBatch(
        services.database,
        {
          orgId,
          name: (values.name as string | undefined) ?? null,
          callbackUrl: (values["callback-url"] as string | undefined) ?? null,
          rowLimit: services.config.batchRowsMax,
        },
        createReadStream(file).pipe(progress.counter),
      );
      return placed.body as Record<string, unknown>;
    } finally {
      progress.stop();
    }
  },
  describe: (result) => {
    const rejections = result.rejections as Array<{ row: number; field?: string; reason: string }>;
    return [
      `Placed batch ${result.batch_id}: ${result.rows} rows, ${result.accepted} accepted, ${result.rejected} rejected.`,
      ...rejections.map(
        (rejection) => `  row ${rejection.row}: ${rejection.reason}${rejection.field ? ` (${rejection.field})` : ""}`,
      ),
      `Progress: GET /v1/order-batches/${result.batch_id}; results: GET /v1/order-batches/${result.batch_id}/results`,
    ].join("\n");
  },
};

/** Counts the bytes read into a progress bar on a terminal (stderr); passes them through unchanged either way. */
function progressBar(io: CliIo, total: number) {
  const bar =
    io === processIo && process.stderr.isTTY
      ? new SingleBar({ format: "placing orders [{bar}] {percentage}%", stream: process.stderr, hideCursor: true })
      : undefined;
  bar?.start(total, 0);
  let read = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      read += chunk.length;
      bar?.update(read);
      done(null, chunk);
    },
  });
  return { counter, stop: () => bar?.stop() };
}

export const orderCommands: Record<string, Command> = { "orders import": ordersImport };
