import { SingleBar } from "cli-progress";
import type { ImportKind } from "../geo/import/import-file.js";
import type { ImportStage } from "../geo/import/import-stage.js";
import type { ImportSummary } from "../geo/import/import-summary.js";
import { type CliIo, processIo } from "./io.js";

/** The stages an operator sees: the import's own, then the property records the command computes again. */
export type ShownStage = ImportStage | "recomputing";

const STAGES: Record<ShownStage, string> = {
  replacing: "removing the dataset it replaces",
  indexing: "writing the last rows and building the indexes",
  reassigning: "finding the parcels of the buildings under changed lots",
  properties: "updating the property records under the changes",
  committing: "committing",
  recomputing: "computing the queued property records again",
};

/** How often a log (stderr not a terminal) is told how the import is going, ms: a shorter import tells it nothing. */
export const LOG_EVERY_MS = 15_000;

/** How often a terminal's line is redrawn, ms: the time spent in a stage counts up. */
const TERMINAL_EVERY_MS = 1_000;

/** Reading this long before the time left is estimated, ms: the first seconds' rate says little. */
const ESTIMATE_AFTER_MS = 5_000;

/**
 * Where progress goes: a terminal's line redrawn in place when the process's stderr is a terminal, a line now and
 * then when it is a file or pipe (a service's or a job's log), nothing when a caller passed its own io.
 */
export type ProgressMode = "terminal" | "log" | "silent";

export function progressModeFor(io: CliIo): ProgressMode {
  if (io !== processIo) return "silent";
  return process.stderr.isTTY ? "terminal" : "log";
}

/**
 * How an import is going, on stderr: how much of the file is read, the records so far and their rate, the time
 * left to read, and then which of the end work is under way (at a state's size, minutes after the last record).
 * On a terminal, one line redrawn in place; in a log (a service's, a job's), a line every {@link LOG_EVERY_MS}, so
 * that an import shorter than that writes nothing. Never on stdout, which carries the result.
 */
export class ImportProgress {
  readonly #kind: ImportKind;
  readonly #write: (text: string) => void;
  readonly #bar: SingleBar | undefined;
  readonly #timer: NodeJS.Timeout | undefined;
  readonly #started = Date.now();
  #bytes = { read: 0, total: 0 };
  #records = 0;
  /** When the last record was read: the stages come after. */
  #readFor: number | undefined;
  #stage: { stage: ShownStage; since: number } | undefined;
  #logged = false;
  /** Whether the terminal's line was drawn: not for an import refused before it read anything. */
  #drawn = false;

  constructor(io: CliIo, kind: ImportKind, mode: ProgressMode) {
    this.#kind = kind;
    this.#write = io.stderr;
    if (mode === "silent") return;
    const terminal = mode === "terminal";
    if (terminal) {
      this.#bar = new SingleBar({
        format: `importing ${kind} [{bar}] {status}`,
        stream: process.stderr,
        hideCursor: true,
      });
    }
    this.#timer = setInterval(() => this.#tell(), terminal ? TERMINAL_EVERY_MS : LOG_EVERY_MS);
    // A timer that never keeps the command from ending.
    this.#timer.unref();
  }

  /** What the import calls back with, for `importFile`'s options. */
  get hooks() {
    return {
      onBytes: (read: number, total: number) => {
        this.#bytes = { read, total };
        if (this.#bar) this.#tellTerminal();
      },
      onProgress: (summary: ImportSummary) => {
        this.#records = summary.read;
      },
      onStage: (stage: ImportStage) => this.stage(stage),
    };
  }

  /** The import, or the command after it, has come to `stage`. */
  stage(stage: ShownStage): void {
    // The records are all read once a stage other than the removal before them starts.
    if (stage !== "replacing") this.#readFor ??= Date.now() - this.#started;
    this.#stage = { stage, since: Date.now() };
    if (this.#bar) this.#tellTerminal();
  }

  /** Ends the line on a terminal; in a log that heard of the import, says how long it took. */
  stop(): void {
    clearInterval(this.#timer);
    if (this.#drawn) this.#bar?.stop();
    if (this.#logged) this.#write(`importing ${this.#kind}: done in ${duration(Date.now() - this.#started)}\n`);
  }

  /** How the import is going, without the kind. */
  #status(): string {
    const now = Date.now();
    if (this.#readFor !== undefined && this.#stage) {
      const { stage, since } = this.#stage;
      return (
        `${count(this.#records)} records read in ${duration(this.#readFor)}; ` +
        `${STAGES[stage]} (${duration(now - since)})`
      );
    }
    if (this.#stage) return `${STAGES[this.#stage.stage]} (${duration(now - this.#stage.since)})`;
    return this.#readingStatus(now - this.#started);
  }

  #readingStatus(elapsed: number): string {
    const { read, total } = this.#bytes;
    const parts = [
      total > 0 ? `${Math.floor((100 * read) / total)}% of ${size(total)} read` : `${size(read)} read`,
      `${count(this.#records)} records${elapsed >= 1000 ? ` (${count((1000 * this.#records) / elapsed)} a second)` : ""}`,
    ];
    const left = total > 0 && read > 0 && elapsed >= ESTIMATE_AFTER_MS ? ((total - read) * elapsed) / read : 0;
    if (left >= 1000) parts.push(`about ${duration(left)} of reading left`);
    return parts.join(", ");
  }

  #tell(): void {
    if (this.#bar) {
      // The line is first drawn when the import first reports: one refused before that leaves none.
      if (this.#drawn) this.#tellTerminal();
      return;
    }
    this.#logged = true;
    this.#write(`importing ${this.#kind}: ${this.#status()}\n`);
  }

  #tellTerminal(): void {
    const { read, total } = this.#bytes;
    const done = this.#readFor === undefined ? read : Math.max(1, total);
    if (!this.#drawn) this.#bar?.start(Math.max(1, total), done, { status: this.#status() });
    this.#drawn = true;
    this.#bar?.setTotal(Math.max(1, total));
    this.#bar?.update(done, { status: this.#status() });
  }
}

/** `45 s`, `1 min 20 s`, `2 h 5 min`: rounded down to what a person reads at a glance. */
export function duration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return seconds % 60 === 0 ? `${minutes} min` : `${minutes} min ${seconds % 60} s`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
}

/** Bytes in decimal units, as file sizes are shown: `980 kB`, `452 MB`, `1.1 GB`. */
export function size(bytes: number): string {
  const units = ["B", "kB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  const digits = value < 10 && unit > 0 ? 1 : 0;
  return `${value.toFixed(digits)} ${units[unit]}`;
}

function count(value: number): string {
  return Math.round(value).toLocaleString("en-US");
}
