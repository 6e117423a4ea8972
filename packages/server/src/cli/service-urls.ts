import { ConfigError, loadConfig } from "../config/config.js";
import {
  type PublicConfiguration,
  publicConfigurationOf,
  samePublicConfiguration,
} from "../config/public-configuration.js";
import { readRecordedPublicConfiguration } from "../config/recorded-public-configuration.js";
import type { Services } from "../services.js";
import type { OptionSpec } from "./command.js";
import { type CliIo, UsageError } from "./io.js";

/** The flag of the commands that print the service's URLs, for when the service runs somewhere else. */
export const PUBLIC_URL_OPTION: OptionSpec = { "public-url": { type: "string" } };

export const PUBLIC_URL_USAGE = "[--public-url URL]";

/** The URLs and audience to print, and a line for stderr when they may not be the running service's. */
export interface ServiceUrls extends PublicConfiguration {
  note: string | undefined;
}

/**
 * The public URL and API audience that a command prints, both from the first source that has them:
 *
 * 1. `--public-url URL`, read as `lotline serve --public-url URL` would read it in this environment: the audience
 *    is `URL/v1` unless this environment sets `LOTLINE_API_AUDIENCE`;
 * 2. what the service last started on this database recorded (`lotline serve`, `lotline demo`): the command is
 *    usually run from a shell whose environment says nothing of the service's port or address;
 * 3. this process's own configuration, which may well not be the service's, hence a note.
 *
 * The two values never come from different sources: an audience from one and a URL from another would be a pair
 * that no service answers to. Throws before anything is created when the flag is wrong; the caller prints the
 * note after it has created what it prints, so a failed command still says only one line.
 */
export async function serviceUrls(
  values: Record<string, unknown>,
  services: Services,
  io: CliIo,
): Promise<ServiceUrls> {
  const flag = values["public-url"];
  if (typeof flag === "string") return { ...fromFlag(flag, io.env), note: undefined };
  const own = publicConfigurationOf(services.config);
  const recorded = await readRecordedPublicConfiguration(services.db);
  if (!recorded) {
    return {
      ...own,
      note:
        `no service has started on this database yet, so these URLs come from this shell's environment ` +
        `(${own.publicUrl}); give --public-url if the service is reached elsewhere`,
    };
  }
  const service = { publicUrl: recorded.publicUrl, apiAudience: recorded.apiAudience };
  return { ...service, note: environmentDisagrees(io.env, own, service) };
}

function fromFlag(raw: string, env: CliIo["env"]): PublicConfiguration {
  if (raw.trim() === "") throw new UsageError("--public-url needs a URL, e.g. https://lotline.example.com");
  try {
    return publicConfigurationOf(loadConfig(env, { LOTLINE_PUBLIC_URL: raw }));
  } catch (error) {
    if (error instanceof ConfigError && error.variable === "LOTLINE_PUBLIC_URL") {
      throw new UsageError(`--public-url: ${error.reason}`);
    }
    throw error;
  }
}

/**
 * An operator who set the public URL or audience in this shell and gets the service's instead should hear of it;
 * an environment that says nothing of them (the usual case) is not worth a word.
 */
function environmentDisagrees(
  env: CliIo["env"],
  own: PublicConfiguration,
  service: PublicConfiguration,
): string | undefined {
  const explicit = ["LOTLINE_PUBLIC_URL", "LOTLINE_API_AUDIENCE"].filter((name) => env[name]?.trim());
  if (explicit.length === 0 || samePublicConfiguration(own, service)) return undefined;
  return (
    `this shell's environment (${explicit.join(", ")}) gives ${own.publicUrl} and audience ${own.apiAudience}, ` +
    `but the service last started on this database uses ${service.publicUrl} and ${service.apiAudience}; ` +
    `printing the service's (give --public-url to choose)`
  );
}
