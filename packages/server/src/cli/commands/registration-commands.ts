import { CALLBACK_PREFIXES } from "../../tenancy/callback-prefixes.js";
import { HOST_ORIGINS } from "../../tenancy/host-origins.js";
import { listRegistered, type Registry, register, unregister } from "../../tenancy/registrations.js";
import type { Command } from "../command.js";

/**
 * `add`, `list` and `remove` for one registry: `lotline NOUN add --org ORG_ID --FLAG VALUE` prints
 * `{"org_id", FLAG}`; `list` prints `{"org_id", PLURAL: [...]}`.
 */
function registrationCommands(noun: string, flag: string, plural: string, label: string, registry: Registry) {
  const withValue = { org: { type: "string" as const }, [flag]: { type: "string" as const } };
  const add: Command = {
    usage: `${noun} add --org ORG_ID --${flag} ${flag.toUpperCase()} [--json]`,
    options: withValue,
    required: ["org", flag],
    run: async ({ values, services }) => ({
      org_id: values.org,
      [flag]: await register(services.db, registry, values.org as string, values[flag] as string),
    }),
    describe: (result) => `Registered ${label} ${result[flag]} for ${result.org_id}.`,
  };
  const list: Command = {
    usage: `${noun} list --org ORG_ID [--json]`,
    options: { org: { type: "string" } },
    required: ["org"],
    run: async ({ values, services }) => ({
      org_id: values.org,
      [plural]: await listRegistered(services.db, registry, values.org as string),
    }),
    describe: (result) => (result[plural] as string[]).join("\n") || `(no ${label}s registered)`,
  };
  const remove: Command = {
    usage: `${noun} remove --org ORG_ID --${flag} ${flag.toUpperCase()} [--json]`,
    options: withValue,
    required: ["org", flag],
    run: async ({ values, services }) => ({
      org_id: values.org,
      [flag]: await unregister(services.db, registry, values.org as string, values[flag] as string),
    }),
    describe: (result) => `Removed ${label} ${result[flag]} from ${result.org_id}.`,
  };
  return { add, list, remove };
}

/** `lotline endpoint add|list|remove`: the host page origins allowed to frame the organization's pages. */
export const endpointCommands = registrationCommands("endpoint", "origin", "origins", "host origin", HOST_ORIGINS);

/** `lotline callback add|list|remove`: the URL prefixes the organization's callback URLs must start with. */
export const callbackCommands = registrationCommands(
  "callback",
  "prefix",
  "prefixes",
  "callback prefix",
  CALLBACK_PREFIXES,
);
