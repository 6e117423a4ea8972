import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { emptySummary } from "../geo/import/import-summary.js";
import type { CliIo } from "./io.js";
import { duration, LOG_EVERY_MS, Progress, progressModeFor, size } from "./progress.js";

/** What an operator reads in a log (stderr not a terminal) while a long import or removal runs. */

let written: string[];
const io: CliIo = { env: {}, stdout: () => {}, stderr: (text) => written.push(text) };

beforeEach(() => {
  vi.useFakeTimers();
  written = [];
});
afterEach(() => {
  vi.useRealTimers();
});

function recordsRead(read: number) {
  return { ...emptySummary("buildings", "footprints"), read };
}

describe("an import's progress in a log", () => {
  it("says nothing of an import shorter than its interval", async () => {
    const progress = new Progress(io, "importing buildings", "log", { reads: true });
    await progress.follow(async () => {
      progress.hooks.onBytes(1_000_000, 1_000_000);
      progress.hooks.onProgress(recordsRead(5000));
      progress.hooks.onStage("indexing");
      vi.advanceTimersByTime(LOG_EVERY_MS - 1);
    });
    expect(written).toEqual([]);
  });

  it("tells the share read, the records and their rate, the time left, each stage and the time it took", async () => {
    const progress = new Progress(io, "importing buildings", "log", { reads: true });
    await progress.follow(async () => {
      const { onBytes, onProgress, onStage } = progress.hooks;
      onBytes(500_000_000, 2_000_000_000);
      onProgress(recordsRead(300_000));
      vi.advanceTimersByTime(LOG_EVERY_MS);
      // A quarter read in 15 s: three quarters more take 45 s.
      expect(written).toEqual([
        "importing buildings: 25% of 2.0 GB read, 300,000 records (20,000 a second), about 45 s of reading left\n",
      ]);

      onBytes(2_000_000_000, 2_000_000_000);
      onProgress(recordsRead(1_200_000));
      vi.advanceTimersByTime(45_000);
      onStage("indexing");
      vi.advanceTimersByTime(LOG_EVERY_MS);
      onStage("properties");
      vi.advanceTimersByTime(70_000);
    });
    // Reading ended at 1 min; each stage is told as it starts (the import is long by then), then every 15 s.
    const indexing = "writing the last rows and building the indexes";
    const properties = "updating the property records under the changes";
    expect(written.slice(4)).toEqual([
      ...[`${indexing} (0 s)`, `${indexing} (15 s)`, `${properties} (0 s)`]
        .concat(["15 s", "30 s", "45 s", "1 min"].map((time) => `${properties} (${time})`))
        .map((status) => `importing buildings: 1,200,000 records read in 1 min; ${status}\n`),
      "importing buildings: done in 2 min 25 s\n",
    ]);
  });

  it("says nothing at all where the caller gave the command its own io", async () => {
    expect(progressModeFor(io)).toBe("silent");
    const progress = new Progress(io, "importing layer", "silent", { reads: true });
    await progress.follow(async () => {
      progress.hooks.onStage("indexing");
      vi.advanceTimersByTime(10 * LOG_EVERY_MS);
    });
    expect(written).toEqual([]);
  });

  it("tells of the removal of the dataset an import replaces, before it reads", async () => {
    const progress = new Progress(io, "importing parcels", "log", { reads: true });
    await progress.follow(async () => {
      progress.hooks.onStage("replacing");
      vi.advanceTimersByTime(LOG_EVERY_MS);
      progress.stage("recomputing");
      vi.advanceTimersByTime(LOG_EVERY_MS);
    });
    expect(written[0]).toBe("importing parcels: removing the dataset it replaces (15 s)\n");
    expect(written.slice(1, 3)).toEqual([
      "importing parcels: computing the queued property records again (0 s)\n",
      "importing parcels: computing the queued property records again (15 s)\n",
    ]);
  });
});

describe("a removal's progress in a log", () => {
  it("tells each stage of the removal and the time it took", async () => {
    const progress = new Progress(io, 'removing "lots"', "log", { reads: false });
    await progress.follow(async () => {
      progress.stage("deleting");
      vi.advanceTimersByTime(LOG_EVERY_MS + 5000);
      progress.stage("reassigning");
      vi.advanceTimersByTime(LOG_EVERY_MS);
    });
    expect(written).toEqual([
      'removing "lots": deleting its rows (15 s)\n',
      'removing "lots": finding the parcels of the buildings under changed lots (0 s)\n',
      'removing "lots": finding the parcels of the buildings under changed lots (10 s)\n',
      'removing "lots": done in 35 s\n',
    ]);
  });
});

describe("a command that fails", () => {
  it("is told as failed in a log, after how long", async () => {
    const progress = new Progress(io, 'removing "lots"', "log", { reads: false });
    const failing = progress.follow(async () => {
      progress.stage("deleting");
      vi.advanceTimersByTime(LOG_EVERY_MS + 5000);
      throw new Error("the disk is full");
    });
    await expect(failing).rejects.toThrow("the disk is full");
    expect(written).toEqual(['removing "lots": deleting its rows (15 s)\n', 'removing "lots": failed after 20 s\n']);
  });
});

describe("how progress writes times and sizes", () => {
  it("rounds times down to what is read at a glance", () => {
    expect([0, 999, 59_999, 60_000, 3_599_999, 3_600_000, 7_500_000].map(duration)).toEqual([
      "0 s",
      "0 s",
      "59 s",
      "1 min",
      "59 min 59 s",
      "1 h",
      "2 h 5 min",
    ]);
  });

  it("writes sizes in decimal units, with a decimal below ten", () => {
    expect([0, 999, 1000, 980_000, 452_000_000, 1_130_000_000, 12_400_000_000_000].map(size)).toEqual([
      "0 B",
      "999 B",
      "1.0 kB",
      "980 kB",
      "452 MB",
      "1.1 GB",
      "12 TB",
    ]);
  });
});
