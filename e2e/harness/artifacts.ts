import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** Where browser tests leave screenshots (`e2e/artifacts/`, ignored by git). */
export function artifactPath(name: string): string {
  const folder = fileURLToPath(new URL("../artifacts/", import.meta.url));
  mkdirSync(folder, { recursive: true });
  return `${folder}${name}`;
}
