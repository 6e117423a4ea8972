import { parseArgs } from "node:util";
import { flagName, loadConfig, VARIABLES } from "../../config/config.js";
import type { OptionSpec } from "../command.js";
import { type CliIo, UsageError } from "../io.js";
import { ROLES, type Role } from "../roles.js";

export const SERVE_USAGE = `serve [--role ${ROLES.join("|")}] [--${VARIABLES.map(flagName).join(" N] [--")} N]`;

/** `lotline serve`: every configuration variable may also be given as a flag, which wins. */
export async function serve(args: string[], io: CliIo): Promise<void> {
  const options: OptionSpec = { role: { type: "string" } };
  for (const variable of VARIABLES) options[flagName(variable)] = { type: "string" };
  const values = parseArgs({ args, options, strict: true }).values as Record<string, string | undefined>;
  const role = (values.role ?? "all") as Role;
  if (!ROLES.includes(role)) throw new UsageError(`--role must be one of ${ROLES.join(", ")}`);
  const overrides = Object.fromEntries(VARIABLES.map((variable) => [variable, values[flagName(variable)]]));
  // The server's modules load only when it starts: every other command boots without them.
  const { startServer, stopOnSignals } = await import("../server.js");
  const server = await startServer(loadConfig(io.env, overrides), role);
  stopOnSignals(server);
}
