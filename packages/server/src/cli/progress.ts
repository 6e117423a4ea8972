import { SingleBar } from "cli-progress";
import type { DatasetStage } from "../geo/datasets/dataset-stage.js";
import type { ImportSummary } from "../geo/import/import-summary.js";
import { type CliIo, processIo } from "./io.js";

/** The stages an operator sees: the import's or removal's own, then the property records computed again. */
export type ShownStage = DatasetStage | "recomputing";

const STAGES: Record<ShownStage, string> = {
  replacing: "removing the dataset it replaces",
  indexing: "writing the last rows and building the indexes",
  deleting: "deleting its rows",
  reassigning: "finding the parcels of the buildings under changed lots",
  properties: "updating the property records under the changes",
  committing: "committing",
  recomputing: "computing the queued property records again",
};

/** How often a log (stderr not a terminal) is told how the command is going, ms: a shorter one tells it nothing. */
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
 * How a long command on datasets is going, on stderr: for an import, how much of the file is read, the records so
 * far and their rate and the time left to read; then, for an import or a removal, which of its work is under way
 * (at a state's size, minutes after an import's last record). On a terminal, one line redrawn in place; in a log (a
 * service's, a job's), a line every {@link LOG_EVERY_MS} and, once the command has run that long, at each stage, so
 * that a command shorter than that writes nothing there. Never on stdout, which carries the result.
 */
export class Progress {
  readonly #label: string;
  readonly #write: (text: string) => void;
  readonly #bar: SingleBar | undefined;
  readonly #timer: NodeJS.Timeout | undefined;
  readonly #started = Date.now();
  #bytes = { read: 0, total: 0 };
  #records = 0;
  /** How long an import took to read its records, ms: set as the first stage after reading starts. */
  #readFor: number | undefined;
  #stage: { stage: ShownStage; since: number } | undefined;
  #logged = false;
  /** Whether the terminal's line was drawn: not for a command refused before it began. */
  #drawn = false;

  /**
   * `label` says what the command does (`importing parcels`); `reads` whether it reads a file, whose share read a
   * terminal's line shows as a bar.
   */
  constructor(io: CliIo, label: string, mode: ProgressMode, { reads }: { reads: boolean }) {
    this.#label = label;
    this.#write = io.stderr;
    if (mode === "silent") return;
    const terminal = mode === "terminal";
    if (terminal) {
      this.#bar = new SingleBar({
        format: reads ? `${label} [{bar}] {status}` : `${label}: {status}`,
        stream: process.stderr,
        hideCursor: true,
      });
    }
    this.#timer = setInterval(() => this.#tell(), terminal ? TERMINAL_EVERY_MS : LOG_EVERY_MS);
    // A timer that never keeps the command from ending.
    this.#timer.unref();
  }

  /** What an import calls back with, for `importFile`'s options. */
  get hooks() {
    return {
      onBytes: (read: number, total: number) => {
        this.#bytes = { read, total };
        if (this.#bar) this.#tellTerminal();
      },
      onProgress: (summary: ImportSummary) => {
        this.#records = summary.read;
      },
      onStage: (stage: DatasetStage) => this.stage(stage),
    };
  }

  /** The command has come to `stage`. */
  stage(stage: ShownStage): void {
    // An import's records are all read once a stage other than the removal of the dataset it replaces starts.
    if (stage !== "replacing") this.#readFor ??= Date.now() - this.#started;
    this.#stage = { stage, since: Date.now() };
    if (this.#bar) this.#tellTerminal();
    // A long command's log hears of each stage as it starts: the timer waits for a free turn of the event loop,
    // which a SQLite statement of minutes (a state's R*Tree filled) does not leave.
    else if (this.#timer && Date.now() - this.#started >= LOG_EVERY_MS) this.#tell();
  }

  /**
   * Runs the command's `work`, then ends the line on a terminal; a log that heard of the command is told how it ended
   * and after how long.
   */
  async follow<T>(work: () => Promise<T>): Promise<T> {
    let ended = "failed after";
    try {
      const result = await work();
      ended = "done in";
      return result;
    } finally {
      clearInterval(this.#timer);
      if (this.#drawn) this.#bar?.stop();
      if (this.#logged) this.#write(`${this.#label}: ${ended} ${duration(Date.now() - this.#started)}\n`);
    }
  }

  /** How the command is going, without its label. */
  #status(): string {
    const now = Date.now();
    if (!this.#stage) return this.#readingStatus(now - this.#started);
    const doing = `${STAGES[this.#stage.stage]} (${duration(now - this.#stage.since)})`;
    const read = this.#readFor !== undefined && this.#records > 0;
    return read ? `${count(this.#records)} records read in ${duration(this.#readFor ?? 0)}; ${doing}` : doing;
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
      // The line is first drawn when the command first reports: one refused before that leaves none.
      if (this.#drawn) this.#tellTerminal();
      return;
    }
    this.#logged = true;
    this.#write(`${this.#label}: ${this.#status()}\n`);
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
