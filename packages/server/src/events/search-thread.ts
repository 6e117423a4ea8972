import { parentPort, workerData } from "node:worker_threads";
import { openDatabase } from "../db/database.js";
import { EventArea } from "./event-area.js";
import { findImpacts } from "./find-impacts.js";
import type { SearchThreadInput, SearchThreadMessage } from "./search-on-threads.js";

// The script of a search thread (see `search-on-threads.ts`): its share of an event's search, on a connection of
// its own, each chunk of impacts posted to the main thread as it is found.

const { databaseUrl, areas, share } = workerData as SearchThreadInput;
const post = (message: SearchThreadMessage) => parentPort?.postMessage(message);
const database = openDatabase(databaseUrl);
try {
  const source = { db: database.db, dialect: database.dialect };
  await findImpacts(source, new EventArea(areas), async (impacts) => post({ impacts }), share);
  post("done");
} finally {
  await database.close();
}
