import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";

/**
 * A folder of the test file's own, made before its tests and removed after them; `written` puts a file in it and
 * answers its path.
 */
export function testFolder(name: string): {
  path: () => string;
  written: (file: string, bytes: string | Buffer) => Promise<string>;
} {
  let folder: string | undefined;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), `lotline-${name}-`));
  });
  afterAll(() => (folder ? rm(folder, { recursive: true, force: true }) : undefined));
  const path = () => {
    if (!folder) throw new Error("the test folder is made before the tests");
    return folder;
  };
  return {
    path,
    async written(file, bytes) {
      const at = join(path(), file);
      await writeFile(at, bytes);
      return at;
    },
  };
}
