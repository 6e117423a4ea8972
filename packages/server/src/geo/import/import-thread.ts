import { parentPort, workerData } from "node:worker_threads";
import { type Database, openDatabase } from "../../db/database.js";
import { reprojectionFrom } from "../readers/crs.js";
import { AddressLocator } from "./address-locator.js";
import { type AddressRecords, locatedTransferList, packLocated, unpackAddressRecords } from "./address-transfer.js";
import { type AreaBatch, prepareOnThread } from "./area-preparer.js";
import { packAreas } from "./area-transfer.js";
import { ParcelAssigner } from "./assign-buildings.js";
import type { ImportThreadData, ImportThreadInput, ImportThreadMessage } from "./import-threads.js";

// The script of an import thread (see `import-threads.ts`): each batch the import sends it comes back worked on,
// read on a connection of the thread's own.

const { databaseUrl, task } = workerData as ImportThreadData;
const post = (message: ImportThreadMessage, transfer: ArrayBuffer[] = []) => parentPort?.postMessage(message, transfer);
// Opened by the tasks that read: preparing parcels needs no connection.
let database: Database | undefined;
const source = () => {
  database ??= openDatabase(databaseUrl);
  return { db: database.db, dialect: database.dialect };
};

/**
 * The task's work on one batch, with the buffers to hand back with it; what it keeps between batches (parcels
 * read) is the thread's own.
 */
function work(): (batch: unknown) => Promise<{ result: unknown; transfer: ArrayBuffer[] }> {
  switch (task.kind) {
    case "prepare-areas": {
      const assigner = task.owners ? new ParcelAssigner(source()) : undefined;
      const { crs } = task.source;
      const reprojection = crs === undefined ? null : reprojectionFrom(crs, "--crs");
      return async (batch) => {
        const { packed, transfer } = packAreas(
          await prepareOnThread(batch as AreaBatch, task.source, reprojection, assigner),
        );
        return { result: packed, transfer };
      };
    }
    case "locate-addresses": {
      const locator = new AddressLocator(task.options);
      const from = { ...source(), namespace: task.namespace };
      return async (batch) => {
        const result = packLocated(
          await locator.locateBatch(from, unpackAddressRecords(batch as AddressRecords, task.options)),
        );
        return { result, transfer: locatedTransferList(result) };
      };
    }
  }
}

const workOn = work();
parentPort?.on("message", async (input: ImportThreadInput) => {
  if (input === "stop") {
    await database?.close();
    parentPort?.close();
    return;
  }
  try {
    const { result, transfer } = await workOn(input.batch);
    post({ id: input.id, result }, transfer);
  } catch (error) {
    post({ id: input.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
});
