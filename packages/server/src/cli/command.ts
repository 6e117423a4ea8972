import type { ParseArgsConfig } from "node:util";
import type { Services } from "../services.js";
import type { CliIo } from "./io.js";

export type OptionSpec = NonNullable<ParseArgsConfig["options"]>;

/** An operator command that works on the database: parse → run → print JSON or a description. */
export interface Command {
  usage: string;
  options: OptionSpec;
  required: string[];
  /** The name under which the one positional argument (e.g. the FILE of an import) reaches `values`. */
  positional?: string;
  /** The positional may be given more than once: it then reaches `values` as every one given, in order. */
  positionalRepeats?: boolean;
  run(input: { values: Record<string, unknown>; services: Services; io: CliIo }): Promise<Record<string, unknown>>;
  /** The human-readable output when `--json` is not given. */
  describe(result: Record<string, unknown>): string;
}
