import { CALLBACK_PREFIXES } from "../../tenancy/callback-prefixes.js";
import { HOST_ORIGINS } from "../../tenancy/host-origins.js";
import { listRegistered, type Registry, register, unregister } from "../../tenancy/registrations.js";
import { type AddressClass, BlockedAddressError, resolveSafeAddress } from "../../webhooks/index.js";
import type { Command } from "../command.js";
import type { CliIo } from "../io.js";

/** Checks a value `add` has just registered; it may warn on stderr, never refuse. */
type AfterAdd = (value: string, io: CliIo) => Promise<void>;

/**
 * `add`, `list` and `remove` for one registry: `lotline NOUN add --org ORG_ID --FLAG VALUE` prints
 * `{"org_id", FLAG}`; `list` prints `{"org_id", PLURAL: [...]}`.
 */
function registrationCommands(
  noun: string,
  flag: string,
  plural: string,
  label: string,
  registry: Registry,
  afterAdd: AfterAdd = async () => {},
): Record<string, Command> {
  const withValue = { org: { type: "string" as const }, [flag]: { type: "string" as const } };
  const add: Command = {
    usage: `${noun} add --org ORG_ID --${flag} ${flag.toUpperCase()} [--json]`,
    options: withValue,
    required: ["org", flag],
    run: async ({ values, services, io }) => {
      const value = await register(services.db, registry, values.org as string, values[flag] as string);
      await afterAdd(value, io);
      return { org_id: values.org, [flag]: value };
    },
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
  return { [`${noun} add`]: add, [`${noun} list`]: list, [`${noun} remove`]: remove };
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
  warnOfBlockedCallbackHost,
);

/** The classes LOTLINE_WEBHOOK_ALLOW_HOSTS can open; metadata, link-local and the rest stay refused whatever it says. */
const ALLOWABLE: ReadonlySet<AddressClass> = new Set(["private", "loopback", "carrier_grade_nat"]);
/** How long the host's name may take to resolve before the check gives up, saying nothing. */
const LOOKUP_TIMEOUT_MS = 2000;

/**
 * Warns when a callback prefix's host is, or resolves to, an address webhooks are not sent to (loopback, private,
 * cloud metadata, link-local …): deliveries there fail with `blocked_address`. The prefix is registered all the
 * same: a development service may allow the host (LOTLINE_WEBHOOK_ALLOW_HOSTS), and the service's resolver, not
 * this shell's, has the last word. A name that does not resolve from here says nothing for the same reason.
 */
async function warnOfBlockedCallbackHost(prefix: string, io: CliIo): Promise<void> {
  const check = resolveSafeAddress(new URL(prefix).hostname, []).then(
    () => undefined,
    (error: unknown) => (error instanceof BlockedAddressError ? error : undefined),
  );
  const timeout = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), LOOKUP_TIMEOUT_MS).unref());
  const blocked = await Promise.race([check, timeout]);
  if (!blocked) return;
  const unless = ALLOWABLE.has(blocked.reason)
    ? ` unless the service's LOTLINE_WEBHOOK_ALLOW_HOSTS names ${blocked.hostname}`
    : "";
  io.stderr(`lotline: warning: ${blocked.message}: webhooks to ${prefix} will be refused${unless}\n`);
}
