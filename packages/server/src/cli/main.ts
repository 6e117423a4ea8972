import { parseArgs } from "node:util";
import { ConfigError } from "../config/config.js";
import { DomainError } from "../errors.js";
import type { Command } from "./command.js";
import { migrate } from "./commands/migrate-command.js";
import { SERVE_USAGE, serve } from "./commands/serve-command.js";
import { withServices } from "./context.js";
import { asksForHelp, helpFor, usagesOf } from "./help.js";
import { type CliIo, processIo, UsageError } from "./io.js";

/**
 * Commands named by two words, a noun and a verb, grouped by noun (or by the whole name). A group's module is
 * loaded only when one of its commands runs, or when help lists them all: an import does not load the modules of
 * orders, events or tenancy, which cost it half a second of start when every command was loaded.
 */
const COMMAND_GROUPS: Record<string, () => Promise<Record<string, Command>>> = {
  org: tenancyCommands,
  client: tenancyCommands,
  "iframe-key": tenancyCommands,
  keys: tenancyCommands,
  "product-matrix": tenancyCommands,
  endpoint: async () => (await import("./commands/registration-commands.js")).endpointCommands,
  callback: async () => (await import("./commands/registration-commands.js")).callbackCommands,
  "custom-field": async () => (await import("./commands/custom-field-commands.js")).customFieldCommands,
  import: async () => (await import("./commands/import-commands.js")).importCommands,
  "import event": async () => (await import("./commands/import-event-command.js")).importEventCommands,
  datasets: async () => (await import("./commands/dataset-commands.js")).datasetCommands,
  orders: async () => (await import("./commands/order-commands.js")).orderCommands,
};

async function tenancyCommands(): Promise<Record<string, Command>> {
  return (await import("./commands/tenancy-commands.js")).tenancyCommands;
}

/** Every command of the table, in the order help lists them. */
async function allCommands(): Promise<Record<string, Command>> {
  const groups = await Promise.all([...new Set(Object.values(COMMAND_GROUPS))].map((load) => load()));
  return Object.assign({}, ...groups);
}

/** The commands that take their arguments their own way, outside the table. */
const SPECIAL_USAGES = { serve: SERVE_USAGE, migrate: "migrate", demo: "demo" };

async function usage(): Promise<string> {
  return [
    "usage: lotline <command>   (lotline <command> --help for what it does and an example)",
    ...Object.values(SPECIAL_USAGES).map((usage) => `  ${usage}`),
    ...Object.values(await allCommands()).map((command) => `  ${command.usage}`),
  ].join("\n");
}

/**
 * Runs one command and returns the exit code: 0 done, 1 failed, 2 wrong arguments or configuration
 * (one line on stderr saying what is wrong).
 */
export async function main(argv: string[], io: CliIo = processIo): Promise<number> {
  try {
    await dispatch(argv, io);
    return 0;
  } catch (error) {
    if (error instanceof UsageError || error instanceof ConfigError || error instanceof DomainError) {
      io.stderr(`lotline: ${error.message}\n`);
      return 2;
    }
    if (error instanceof TypeError && "code" in error && String(error.code).startsWith("ERR_PARSE_ARGS")) {
      io.stderr(`lotline: ${error.message.split(/\. |\n/)[0]}\n`);
      return 2;
    }
    io.stderr(`lotline: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

async function dispatch(argv: string[], io: CliIo): Promise<void> {
  const [first, second, ...rest] = argv;
  if (first === undefined || first === "help" || first === "--help" || first === "-h") {
    io.stdout(`${await usage()}\n`);
    return;
  }
  if (asksForHelp(argv)) {
    const help = helpFor(argv, usagesOf(await allCommands(), SPECIAL_USAGES));
    if (!help) throw new UsageError(`unknown command "${argv.slice(0, 2).join(" ")}"; run lotline help`);
    io.stdout(`${help}\n`);
    return;
  }
  if (first === "serve") return serve(argv.slice(1), io);
  if (first === "migrate") return noArguments(argv.slice(1), () => migrate(io));
  if (first === "demo") {
    // Loaded only when asked for: the demo starts a server, whose modules every other command boots without.
    return noArguments(argv.slice(1), async () => (await import("./commands/demo-command.js")).demo(io));
  }

  const name = `${first} ${second ?? ""}`;
  const load = [name, first].find((key) => Object.hasOwn(COMMAND_GROUPS, key));
  const command = load ? (await COMMAND_GROUPS[load]?.())?.[name] : undefined;
  if (!command) throw new UsageError(`unknown command "${argv.slice(0, 2).join(" ")}"; run lotline help`);
  const { values, positionals } = parseArgs({
    args: command.positional ? dashedPositionalLast(rest) : rest,
    options: { ...command.options, json: { type: "boolean" } },
    strict: true,
    allowPositionals: true,
  }) as { values: Record<string, unknown>; positionals: string[] };
  const expected = command.positional ? (command.positionalRepeats ? Number.POSITIVE_INFINITY : 1) : 0;
  if (positionals.length > expected) {
    throw new UsageError(`unexpected argument "${positionals[expected]}"; usage: lotline ${command.usage}`);
  }
  if (command.positional) {
    if (positionals.length === 0)
      throw new UsageError(`${command.positional.toUpperCase()} is required; usage: lotline ${command.usage}`);
    values[command.positional] = command.positionalRepeats ? positionals : positionals[0];
  }
  const missing = command.required.find((name) => values[name] === undefined || values[name] === "");
  if (missing) throw new UsageError(`--${missing} is required; usage: lotline ${command.usage}`);

  const result = await withServices(io.env, (services) => command.run({ values, services, io }));
  io.stdout(values.json ? `${JSON.stringify(result)}\n` : `${command.describe(result)}\n`);
}

/**
 * The arguments with one that starts with a single "-" moved behind "--", so that it reads as the command's
 * positional: no command has short options, and a key's `kid` (a base64url thumbprint) starts with "-" one time
 * in 64.
 */
function dashedPositionalLast(args: string[]): string[] {
  if (args.includes("--")) return args;
  const dashed = args.filter((arg) => /^-[^-]/.test(arg));
  if (dashed.length !== 1) return args;
  return [...args.filter((arg) => arg !== dashed[0]), "--", ...dashed];
}

function noArguments(args: string[], run: () => Promise<void>): Promise<void> {
  if (args.length) throw new UsageError(`unexpected argument "${args[0]}"`);
  return run();
}
