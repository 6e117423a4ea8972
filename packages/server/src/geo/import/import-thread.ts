import { parentPort, workerData } from "node:worker_threads";
import { openDatabase } from "../../db/database.js";
import { decodeWkb } from "../store/wkb.js";
import type { Area } from "../types.js";
import { AddressLocator } from "./address-locator.js";
import { ParcelAssigner } from "./assign-buildings.js";
import type { ImportThreadData, ImportThreadInput, ImportThreadMessage } from "./import-threads.js";
import type { ReadRecord } from "./run-import.js";

// The script of an import thread (see `import-threads.ts`): each batch the import sends it comes back worked on,
// read on a connection of the thread's own.

const { databaseUrl, task } = workerData as ImportThreadData;
const post = (message: ImportThreadMessage) => parentPort?.postMessage(message);
const database = openDatabase(databaseUrl);
const source = { db: database.db, dialect: database.dialect };

/** The task's work on one batch; what it keeps between batches (parsed parcels) is the thread's own. */
function work(): (batch: unknown) => Promise<unknown> {
  switch (task.kind) {
    case "parcels-of-footprints": {
      const assigner = new ParcelAssigner(source);
      return async (batch) => {
        // Footprints come as WKB: arrays copied between threads arrive slower to read (see `building-importer.ts`).
        const owners = await assigner.owningParcels((batch as Uint8Array[]).map((wkb) => decodeWkb(wkb) as Area));
        return owners.map((owner) => owner ?? null);
      };
    }
    case "locate-addresses": {
      const locator = new AddressLocator(task.options);
      return (batch) => locator.locateBatch({ ...source, namespace: task.namespace }, batch as ReadRecord[]);
    }
  }
}

const workOn = work();
parentPort?.on("message", async (input: ImportThreadInput) => {
  if (input === "stop") {
    await database.close();
    parentPort?.close();
    return;
  }
  try {
    post({ id: input.id, result: await workOn(input.batch) });
  } catch (error) {
    post({ id: input.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
});
