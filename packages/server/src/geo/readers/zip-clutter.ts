import { posix } from "node:path";

/** Folders, and the macOS resource forks that zips made on a Mac carry: no member a reader wants. */
export function isZipClutter(fileName: string): boolean {
  return fileName.endsWith("/") || fileName.startsWith("__MACOSX/") || posix.basename(fileName).startsWith("._");
}
