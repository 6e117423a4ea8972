import type { Kysely } from "kysely";
import { RevokedClients } from "./auth/bearer/revoked-clients.js";
import { SigningKeys } from "./auth/keys/signing-keys.js";
import { FailureThrottle } from "./auth/limits/failure-throttle.js";
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
  /** The revoked data API clients, reloaded every 30 s, whose tokens the bearer guard refuses. */
  readonly revokedClients: RevokedClients;
  /** Wakes this process's background workers at once (after an order is placed), instead of at their next poll. */
  nudgeWorkers: () => void;
}

/** Builds the services over a migrated database. */
export async function createServices(config: Config, database: Database): Promise<Services> {
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
    keys: new SigningKeys(database.db),
    authFailures: new FailureThrottle(config.authFailureLimits.windowSeconds * 1000),
    revokedClients: new RevokedClients(database.db),
    nudgeWorkers: () => {},
  };
}
