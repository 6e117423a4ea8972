import type { Kysely } from "kysely";
import { SigningKeys } from "./auth/keys/signing-keys.js";
import { FailureThrottle } from "./auth/limits/failure-throttle.js";
import { Revocations } from "./auth/revocation/revocations.js";
import type { Config } from "./config/config.js";
import type { Database } from "./db/database.js";
import type { Schema } from "./db/schema.js";
import { SecretDigester } from "./tenancy/secrets.js";

/** What the HTTP edges and the CLI share: configuration, the database and the long-lived helpers. */
export interface Services {
  readonly config: Config;
  readonly database: Database;
  readonly db: Kysely<Schema>;
  readonly digester: SecretDigester;
  readonly keys: SigningKeys;
  readonly authFailures: FailureThrottle;
  /** The revoked data API clients and iframe keys, reloaded every 30 s, whose tokens the guards refuse. */
  readonly revocations: Revocations;
  /** Wakes this process's background workers at once (after an order is placed), instead of at their next poll. */
  nudgeWorkers: () => void;
}

export interface ServiceOptions {
  /** How often this process reloads revocations and signing keys; 30 s unless a test makes it shorter. */
  revocationReloadMs?: number;
}

/** Builds the services over a migrated database. */
export async function createServices(
  config: Config,
  database: Database,
  { revocationReloadMs }: ServiceOptions = {},
): Promise<Services> {
  const { value } = await database.db
    .selectFrom("instance_settings")
    .select("value")
    .where("name", "=", "secret_digest_key")
    .executeTakeFirstOrThrow();
  return {
    config,
    database,
    db: database.db,
    digester: new SecretDigester(Buffer.from(value, "base64url")),
    keys: new SigningKeys(database.db, revocationReloadMs),
    authFailures: new FailureThrottle(config.authFailureLimits.maxBackoffSeconds * 1000),
    revocations: new Revocations(database.db, revocationReloadMs),
    nudgeWorkers: () => {},
  };
}
