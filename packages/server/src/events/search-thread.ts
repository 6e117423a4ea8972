import { parentPort, workerData } from "node:worker_threads";
import { openDatabase } from "../db/database.js";
import { EventArea } from "./event-area.js";
import { findImpacts } from "./find-impacts.js";
import type { SearchRequest, SearchThreadInput, SearchThreadMessage } from "./search-on-threads.js";

// The script of a search thread (see `search-on-threads.ts`): its share of an event's search, on a connection of
// its own, once the main thread has read the event's area; each chunk of impacts posted back as it is found.

const { databaseUrl, share } = workerData as SearchThreadInput;
const post = (message: SearchThreadMessage) => parentPort?.postMessage(message);
const database = openDatabase(databaseUrl);

parentPort?.once("message", async ({ areas }: SearchRequest) => {
  try {
    const source = { db: database.db, dialect: database.dialect };
    await findImpacts(source, new EventArea(areas), async (impacts) => post({ impacts }), share);
    post("done");
  } finally {
    await database.close();
  }
});
