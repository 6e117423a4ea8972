import { parentPort, workerData } from "node:worker_threads";
import { openDatabase } from "../../db/database.js";
import { decodeWkb } from "../store/wkb.js";
import type { Area } from "../types.js";
import { ParcelAssigner } from "./assign-buildings.js";
import type { ParcelThreadInput, ParcelThreadMessage } from "./parcels-on-threads.js";

// The script of an assigning thread (see `parcels-on-threads.ts`): the footprints of each batch a building import
// sends it come back with their parcels, read on a connection of the thread's own.

const { databaseUrl } = workerData as { databaseUrl: string };
const post = (message: ParcelThreadMessage) => parentPort?.postMessage(message);
const database = openDatabase(databaseUrl);
const assigner = new ParcelAssigner({ db: database.db, dialect: database.dialect });

parentPort?.on("message", async (input: ParcelThreadInput) => {
  if (input === "stop") {
    await database.close();
    parentPort?.close();
    return;
  }
  try {
    const owners = await assigner.owningParcels(input.footprints.map((wkb) => decodeWkb(wkb) as Area));
    post({ id: input.id, owners: owners.map((owner) => owner ?? null) });
  } catch (error) {
    post({ id: input.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
});
