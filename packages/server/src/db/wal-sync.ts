import { type FileHandle, open } from "node:fs/promises";

/**
 * Group commit for a SQLite database in WAL mode: `sync()` resolves once everything committed before the call is
 * on the disk, by one `fdatasync` of the write-ahead log on libuv's thread pool. Calls that arrive while a sync
 * runs share the next one, so a burst of commits costs one or two disk flushes, and the event loop never waits
 * for the disk (as it does for a commit under `synchronous = FULL`).
 *
 * Sound because the log is appended in commit order and a checkpoint syncs it before copying it back; and
 * `fdatasync` flushes the file's data whoever wrote it.
 */
export class WalSync {
  readonly #walPath: string;
  #handle: Promise<FileHandle | undefined> | undefined;
  #running: Promise<void> | undefined;
  #next: Promise<void> | undefined;

  constructor(databasePath: string) {
    this.#walPath = `${databasePath}-wal`;
  }

  sync(): Promise<void> {
    if (!this.#running) {
      this.#running = this.#flush().finally(() => {
        this.#running = undefined;
      });
      return this.#running;
    }
    // The running flush may have started before the caller's commit: it waits for the one after.
    this.#next ??= this.#running.then(
      () => this.#afterRunning(),
      () => this.#afterRunning(),
    );
    return this.#next;
  }

  async close(): Promise<void> {
    await this.#running?.catch(() => {});
    const handle = await this.#handle;
    this.#handle = undefined;
    await handle?.close();
  }

  #afterRunning(): Promise<void> {
    this.#next = undefined;
    return this.sync();
  }

  async #flush(): Promise<void> {
    this.#handle ??= open(this.#walPath, "r").catch((error: NodeJS.ErrnoException) => {
      // No log yet: nothing was committed through it.
      if (error.code === "ENOENT") return undefined;
      throw error;
    });
    const handle = await this.#handle;
    if (!handle) {
      this.#handle = undefined;
      return;
    }
    await handle.datasync();
  }
}
