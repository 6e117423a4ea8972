import { existsSync, readdirSync, readlinkSync } from "node:fs";

/** Whether this process's open files can be listed (Linux), and so {@link sqliteTemporaryFiles} read. */
export const CAN_LIST_OPEN_FILES = existsSync("/proc/self/fd");

/**
 * The SQLite temporary files this process has open: a statement journal that outgrew memory, a sort that spilled.
 * Each is named `etilqs_…`, and unlinked as soon as it is opened, so only its open descriptor shows it.
 */
export function sqliteTemporaryFiles(): string[] {
  return readdirSync("/proc/self/fd")
    .map((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        return ""; // closed since the listing
      }
    })
    .filter((target) => target.includes("etilqs_"));
}
