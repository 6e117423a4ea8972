import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { emptySummary } from "../geo/import/import-summary.js";
import { duration, ImportProgress, LOG_EVERY_MS, progressModeFor, size } from "./import-progress.js";
import type { CliIo } from "./io.js";

/** What an operator reads in a log (stderr not a terminal) while a long import runs. */

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
  it("says nothing of an import shorter than its interval", () => {
    const progress = new ImportProgress(io, "buildings", "log");
    progress.hooks.onBytes(1_000_000, 1_000_000);
    progress.hooks.onProgress(recordsRead(5000));
    progress.hooks.onStage("indexing");
    vi.advanceTimersByTime(LOG_EVERY_MS - 1);
    progress.stop();
    expect(written).toEqual([]);
  });

  it("tells the share read, the records and their rate, the time left, each stage and the time it took", () => {
    const progress = new ImportProgress(io, "buildings", "log");
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
    progress.stop();
    // Reading ended at 1 min; a line every 15 s after.
    expect(written.slice(4)).toEqual([
      "importing buildings: 1,200,000 records read in 1 min; writing the last rows and building the indexes (15 s)\n",
      ...["15 s", "30 s", "45 s", "1 min"].map(
        (time) =>
          `importing buildings: 1,200,000 records read in 1 min; updating the property records under the changes (${time})\n`,
      ),
      "importing buildings: done in 2 min 25 s\n",
    ]);
  });

  it("says nothing at all where the caller gave the command its own io", () => {
    expect(progressModeFor(io)).toBe("silent");
    const progress = new ImportProgress(io, "layer", "silent");
    progress.hooks.onStage("indexing");
    vi.advanceTimersByTime(10 * LOG_EVERY_MS);
    progress.stop();
    expect(written).toEqual([]);
  });

  it("tells of the removal of the dataset an import replaces, before it reads", () => {
    const progress = new ImportProgress(io, "parcels", "log");
    progress.hooks.onStage("replacing");
    vi.advanceTimersByTime(LOG_EVERY_MS);
    progress.stage("recomputing");
    vi.advanceTimersByTime(LOG_EVERY_MS);
    progress.stop();
    expect(written[0]).toBe("importing parcels: removing the dataset it replaces (15 s)\n");
    expect(written[1]).toBe(
      "importing parcels: 0 records read in 15 s; computing the queued property records again (15 s)\n",
    );
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
