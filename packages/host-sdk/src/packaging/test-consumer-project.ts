import { execFile } from "node:child_process";
import { copyFile, mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

/**
 * The steps of packaging-then-installing the SDK as an integrator would: `npm pack` in this repository, then a
 * fresh project elsewhere that installs the tarball and compiles against what was installed. Everything runs as a
 * child process and asynchronously, because the test's Lotline server answers from this same process meanwhile.
 */

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
const SNIPPETS = join(ROOT, "docs", "snippets");
const ROUND_TRIP = fileURLToPath(new URL("./test-round-trip.ts", import.meta.url));
const TSC = createRequire(join(ROOT, "package.json")).resolve("typescript/bin/tsc");

/** What a finished child process printed. */
export interface Output {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command to its end and returns its output, whatever its exit code. npm's own variables are left out of
 * its environment: inside `npm test` they describe this repository's workspace, not the project at hand.
 */
export async function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string>; timeoutMs: number },
): Promise<Output> {
  const inherited = Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith("npm_"));
  const env = { ...Object.fromEntries(inherited), ...options.env };
  try {
    const { stdout, stderr } = await promisify(execFile)(command, args, {
      cwd: options.cwd,
      env,
      timeout: options.timeoutMs,
      maxBuffer: 16 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string; message: string };
    if (typeof failed.stdout !== "string") throw error;
    const code = typeof failed.code === "number" ? failed.code : -1;
    return { code, stdout: failed.stdout, stderr: `${failed.stderr ?? ""}\n${failed.message}` };
  }
}

/** Fails with the command's output unless it exited 0. */
export function succeeded(what: string, output: Output): Output {
  if (output.code !== 0) throw new Error(`${what} failed (${output.code}):\n${output.stdout}\n${output.stderr}`);
  return output;
}

/**
 * `npm pack -w @lotline/host-sdk` into `destination`; returns the tarball's path. Lifecycle scripts are skipped:
 * `prepack` would rebuild `dist/` while other tests read it, and `npm test` has just built it.
 */
export async function packSdk(destination: string): Promise<string> {
  const output = succeeded(
    "npm pack",
    await run(
      "npm",
      ["pack", "-w", "@lotline/host-sdk", "--ignore-scripts", "--json", "--pack-destination", destination],
      {
        cwd: ROOT,
        timeoutMs: 60_000,
      },
    ),
  );
  const [packed] = JSON.parse(output.stdout) as Array<{ filename: string }>;
  if (!packed) throw new Error(`npm pack named no tarball:\n${output.stdout}`);
  return join(destination, packed.filename);
}

/**
 * A new project in `directory` with the tarball installed as an integrator installs it, but offline and with an
 * empty npm cache: any dependency the SDK would need from a registry makes the install fail.
 */
export async function installTarball(directory: string, tarball: string, cache: string): Promise<Output> {
  await mkdir(directory, { recursive: true });
  await writeFile(
    join(directory, "package.json"),
    `${JSON.stringify({ name: "core-system", private: true, type: "module" }, null, 2)}\n`,
  );
  const local = join(directory, "lotline-host-sdk.tgz");
  await copyFile(tarball, local);
  const flags = ["--offline", "--cache", cache, "--no-audit", "--no-fund", "--no-update-notifier"];
  return run("npm", ["install", ...flags, "./lotline-host-sdk.tgz"], { cwd: directory, timeoutMs: 60_000 });
}

/** Every file under `directory`, as paths relative to it. */
export async function listFiles(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(directory.length + 1))
    .sort();
}

/**
 * Puts the integration guide's snippets (docs/snippets, every file the guide shows) and the round-trip script in
 * the project's `src/`, with a strict tsconfig compiling them to `out/`, and `@types/node` for their `node:`
 * imports (the one thing taken from this repository, as the TypeScript compiler is). Returns the snippets' names.
 */
export async function addSources(directory: string): Promise<string[]> {
  const source = join(directory, "src");
  await mkdir(source, { recursive: true });
  const snippets = (await readdir(SNIPPETS)).filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"));
  for (const name of snippets) await copyFile(join(SNIPPETS, name), join(source, name));
  await copyFile(ROUND_TRIP, join(source, "round-trip.ts"));
  await mkdir(join(directory, "node_modules", "@types"), { recursive: true });
  await symlink(join(ROOT, "node_modules", "@types", "node"), join(directory, "node_modules", "@types", "node"), "dir");
  await writeFile(join(directory, "tsconfig.json"), `${JSON.stringify(CONSUMER_TSCONFIG, null, 2)}\n`);
  return snippets.sort();
}

/**
 * As strict as the guide's own check (`tsc -p docs`), and with skipLibCheck off: the installed .d.ts files are
 * checked too, so one that referred to a module the package does not ship would fail here.
 */
const CONSUMER_TSCONFIG = {
  compilerOptions: {
    target: "ES2023",
    lib: ["ES2023", "DOM", "DOM.Iterable"],
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: false,
    types: ["node"],
    rootDir: "src",
    outDir: "out",
  },
  include: ["src"],
};

/** Compiles the project with this repository's TypeScript (the one thing an offline install cannot bring). */
export function compile(directory: string): Promise<Output> {
  return run(process.execPath, [TSC, "-p", "tsconfig.json", "--pretty", "false"], {
    cwd: directory,
    timeoutMs: 120_000,
  });
}

/** Reads a JSON file of the installed project. */
export async function readJson(path: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(path, "utf8")) as Record<string, unknown>;
}
