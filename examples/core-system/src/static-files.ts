import { readdirSync, readFileSync } from "node:fs";
import { extname, join } from "node:path";

/** A file of the host page, with the content type it is served under. */
export interface StaticFile {
  body: Buffer;
  contentType: string;
}

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json; charset=utf-8",
};

/**
 * Reads the host page's files (one flat folder) into memory, keyed by their URL path (`/host.js`). Serving only
 * names found here means no request path can reach outside the folder. Files of unknown type are left out.
 */
export function loadStaticFiles(folder: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const contentType = CONTENT_TYPES[extname(entry.name)];
    if (!entry.isFile() || contentType === undefined) continue;
    files.set(`/${entry.name}`, { body: readFileSync(join(folder, entry.name)), contentType });
  }
  return files;
}
