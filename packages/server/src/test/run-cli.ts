import { main } from "../cli/main.js";
import type { Settings } from "../config/config.js";

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `lotline ARGV…` in this process with `env` as its environment, and returns its exit code and output. */
export async function runCli(argv: string[], env: Settings): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, {
    env,
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
  });
  return { code, stdout, stderr };
}
