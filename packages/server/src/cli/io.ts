/** Where a command writes, and what it reads its configuration from; tests pass their own. */
export interface CliIo {
  env: Readonly<Record<string, string | undefined>>;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

export const processIo: CliIo = {
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

/** Wrong arguments: answered with one line on stderr and exit code 2. */
export class UsageError extends Error {
  override name = "UsageError";
}
