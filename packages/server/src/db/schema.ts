/**
 * The tables, as Kysely sees them. Times are epoch milliseconds (`bigint`, read back as numbers on both
 * databases) so comparisons and windows need no date functions that differ between SQLite and PostgreSQL.
 */
export interface Schema {
  instance_settings: InstanceSettingTable;
  organizations: OrganizationTable;
  api_clients: ApiClientTable;
  iframe_keys: IframeKeyTable;
  registrations: RegistrationTable;
  signing_keys: SigningKeyTable;
  token_issuances: TokenIssuanceTable;
}

/** Values created once per deployment, such as the key that secret digests are made with. */
export interface InstanceSettingTable {
  name: string;
  value: string;
}

export interface OrganizationTable {
  org_id: string;
  name: string;
  /** The Standard Webhooks `whsec_` secret; kept whole because every delivery is signed with it. */
  webhook_secret: string;
  created_at: number;
}

export interface ApiClientTable {
  client_id: string;
  org_id: string;
  secret_digest: string;
  created_at: number;
  revoked_at: number | null;
}

export interface IframeKeyTable {
  key_id: string;
  org_id: string;
  key_digest: string;
  created_at: number;
  revoked_at: number | null;
}

export type RegistrationKind = "host_origin" | "callback_prefix";

/** Values an organization registered beforehand: host page origins and callback URL prefixes. */
export interface RegistrationTable {
  org_id: string;
  kind: RegistrationKind;
  value: string;
  created_at: number;
}

export interface SigningKeyTable {
  kid: string;
  algorithm: string;
  public_jwk: string;
  private_pkcs8: string;
  created_at: number;
  /** When a newer key took over signing; the key stays published for a while after. */
  retired_at: number | null;
}

/** Tokens issued to a client in one hour or one day window, for the frequent-caller limits. */
export interface TokenIssuanceTable {
  client_id: string;
  period: "hour" | "day";
  window_start: number;
  count: number;
}
