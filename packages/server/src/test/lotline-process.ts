import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../../bin/lotline.js", import.meta.url));
const COMPILED = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));

/** Every process started and not yet killed, so a test that fails half-way leaves none behind. */
const running = new Set<ChildProcess>();

/** The real `lotline serve` runs the bundle or the compiled `dist`: a test starting it fails at once without them. */
export function requireCompiledLotline(): void {
  if (!existsSync(COMPILED)) throw new Error(`${COMPILED} is missing: run \`npx tsc --build\` before the tests`);
}

/**
 * Starts `lotline serve` on `port` over the database at `databaseUrl` in a child process, webhooks allowed to
 * loopback and no token limits, and resolves once /healthz answers. What it prints is kept for the error messages.
 */
export async function startLotline(databaseUrl: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [BIN, "serve", "--port", String(port)], {
    env: {
      PATH: process.env.PATH ?? "",
      LOTLINE_DATABASE_URL: databaseUrl,
      LOTLINE_PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOTLINE_WEBHOOK_ALLOW_HOSTS: "127.0.0.1",
      LOTLINE_LOG_LEVEL: "error",
      LOTLINE_TOKEN_SOFT_LIMIT_HOUR: "0",
      LOTLINE_TOKEN_HARD_LIMIT_HOUR: "0",
      LOTLINE_TOKEN_SOFT_LIMIT_DAY: "0",
      LOTLINE_TOKEN_HARD_LIMIT_DAY: "0",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  child.once("exit", () => running.delete(child));
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return child;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) throw new Error(`lotline exited early: ${output}`);
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`lotline did not come up: ${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Kills `child` with SIGKILL, as a crash or an out-of-memory kill would, and resolves once it is gone. */
export async function killLotline(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
}

/** Kills whatever this file started and is still running: for a test's `afterAll`. */
export async function killAllLotlines(): Promise<void> {
  await Promise.all([...running].map(killLotline));
}
