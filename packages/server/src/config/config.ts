import { availableParallelism } from "node:os";
import { ORDER_BATCH_ROWS_MAX } from "@lotline/contract/limits";

/**
 * The service's configuration: environment variables (DESIGN.md §3), each overridable by a `lotline serve`
 * flag of the same name (`LOTLINE_PUBLIC_URL` → `--public-url`, `PORT` → `--port`). Every value is checked
 * at start, and a wrong one stops the process with a message that names the variable.
 */
export interface Config {
  port: number;
  host: string;
  /** External origin without a trailing slash; the issuer of every token. */
  publicUrl: string;
  databaseUrl: string;
  /** The `aud` of bearer tokens (`<API_AUDIENCE>`). */
  apiAudience: string;
  iframeTokenTtlSeconds: number;
  webhookAllowHosts: string[];
  logLevel: string;
  /** Fastify's `trustProxy`: whether, or which, proxies' X-Forwarded-For to believe for client addresses. */
  trustProxy: boolean | string[];
  tokenLimits: TokenLimits;
  authFailureLimits: AuthFailureLimits;
  /** Where `/metrics` is served: a listener of its own, off the service port. */
  management: ManagementListener;
  /** An XYZ raster tile URL template (`{z}`, `{x}`, `{y}`) drawn under the pages' own data; null for none. */
  mapImageryUrl: string | null;
  /** The imagery's attribution, shown on the map beside the service's own; null for none. */
  mapImageryAttribution: string | null;
  /** The most rows one order batch may carry (at most, and by default, 100,000). */
  batchRowsMax: number;
  /** Worker threads processing orders in a process that runs jobs; 0 keeps them on the main thread. */
  orderThreads: number;
  /** How long a stopping service lets requests in flight finish before it closes their connections. */
  shutdownTimeoutSeconds: number;
}

/** Issuances per client before a warning header (soft) or a 429 (hard); 0 turns a limit off. */
export interface TokenLimits {
  softPerHour: number;
  hardPerHour: number;
  softPerDay: number;
  hardPerDay: number;
}

/**
 * Failed authentications allowed before an address backs off (1 s, doubling with each further failure, up to
 * `maxBackoffSeconds`; a 429 meanwhile): per credential (client id or organization) from one address, and per
 * address whatever it names. 0 turns a limit off.
 */
export interface AuthFailureLimits {
  perCredential: number;
  perAddress: number;
  maxBackoffSeconds: number;
}

/** The management listener's address; `required` when the operator chose the port (then failing to bind is fatal). */
export interface ManagementListener {
  host: string;
  port: number;
  required: boolean;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    /** What is wrong with the value, without the variable's name: a flag standing for it can name itself instead. */
    readonly reason: string,
  ) {
    super(`${variable}: ${reason}`);
    this.name = "ConfigError";
  }
}

/** Values by variable name, e.g. `process.env` or the flags of `lotline serve` mapped by {@link flagName}. */
export type Settings = Readonly<Record<string, string | undefined>>;

/** The variables a flag may set, with the flag's name. */
export const VARIABLES = [
  "PORT",
  "HOST",
  "LOTLINE_PUBLIC_URL",
  "LOTLINE_DATABASE_URL",
  "LOTLINE_API_AUDIENCE",
  "LOTLINE_IFRAME_TOKEN_TTL",
  "LOTLINE_WEBHOOK_ALLOW_HOSTS",
  "LOTLINE_LOG_LEVEL",
  "LOTLINE_TRUST_PROXY",
  "LOTLINE_TOKEN_SOFT_LIMIT_HOUR",
  "LOTLINE_TOKEN_HARD_LIMIT_HOUR",
  "LOTLINE_TOKEN_SOFT_LIMIT_DAY",
  "LOTLINE_TOKEN_HARD_LIMIT_DAY",
  "LOTLINE_AUTH_FAILURE_LIMIT_CLIENT",
  "LOTLINE_AUTH_FAILURE_LIMIT_IP",
  "LOTLINE_AUTH_FAILURE_BACKOFF_MAX",
  "LOTLINE_AUTH_FAILURE_WINDOW",
  "LOTLINE_MANAGEMENT_PORT",
  "LOTLINE_MANAGEMENT_HOST",
  "LOTLINE_MAP_IMAGERY_URL",
  "LOTLINE_MAP_IMAGERY_ATTRIBUTION",
  "LOTLINE_SHUTDOWN_TIMEOUT",
] as const;

export function flagName(variable: string): string {
  return variable
    .replace(/^LOTLINE_/, "")
    .toLowerCase()
    .replaceAll("_", "-");
}

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

/** Reads the configuration; `overrides` (flags) win over `env`. Throws {@link ConfigError}. */
export function loadConfig(env: Settings, overrides: Settings = {}): Config {
  const read = (name: string): string | undefined => {
    const value = overrides[name] ?? env[name];
    return value === undefined || value.trim() === "" ? undefined : value.trim();
  };
  const port = integer(read, "PORT", 8080, 0, 65_535);
  const publicUrl = origin(read, "LOTLINE_PUBLIC_URL", `http://127.0.0.1:${port}`);
  return {
    port,
    host: read("HOST") ?? "127.0.0.1",
    publicUrl,
    databaseUrl: databaseUrl(read, "LOTLINE_DATABASE_URL"),
    apiAudience: read("LOTLINE_API_AUDIENCE") ?? `${publicUrl}/v1`,
    iframeTokenTtlSeconds: integer(read, "LOTLINE_IFRAME_TOKEN_TTL", 3600, 60, 86_400),
    webhookAllowHosts: (read("LOTLINE_WEBHOOK_ALLOW_HOSTS") ?? "")
      .split(",")
      .map((host) => host.trim().toLowerCase())
      .filter(Boolean),
    logLevel: oneOf(read, "LOTLINE_LOG_LEVEL", "info", LOG_LEVELS),
    trustProxy: trustProxy(read, "LOTLINE_TRUST_PROXY"),
    tokenLimits: {
      softPerHour: integer(read, "LOTLINE_TOKEN_SOFT_LIMIT_HOUR", 20, 0),
      hardPerHour: integer(read, "LOTLINE_TOKEN_HARD_LIMIT_HOUR", 100, 0),
      softPerDay: integer(read, "LOTLINE_TOKEN_SOFT_LIMIT_DAY", 100, 0),
      hardPerDay: integer(read, "LOTLINE_TOKEN_HARD_LIMIT_DAY", 1000, 0),
    },
    authFailureLimits: {
      perCredential: integer(read, "LOTLINE_AUTH_FAILURE_LIMIT_CLIENT", 20, 0),
      perAddress: integer(read, "LOTLINE_AUTH_FAILURE_LIMIT_IP", 100, 0),
      maxBackoffSeconds: maxBackoff(read),
    },
    management: managementListener(read, port),
    mapImageryUrl: tileTemplate(read, "LOTLINE_MAP_IMAGERY_URL"),
    mapImageryAttribution: read("LOTLINE_MAP_IMAGERY_ATTRIBUTION") ?? null,
    batchRowsMax: integer(read, "LOTLINE_BATCH_ROWS_MAX", ORDER_BATCH_ROWS_MAX, 1, ORDER_BATCH_ROWS_MAX),
    // None by default: on two cores they cost more than they give (README, Performance).
    orderThreads: integer(read, "LOTLINE_ORDER_THREADS", 0, 0, Math.max(1, availableParallelism())),
    // Under `docker stop`'s 10 s between SIGTERM and SIGKILL, leaving the jobs in hand time to finish.
    shutdownTimeoutSeconds: integer(read, "LOTLINE_SHUTDOWN_TIMEOUT", 8, 0, 3600),
  };
}

type Reader = (name: string) => string | undefined;

function integer(read: Reader, name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER) {
  const raw = read(name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `expected a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `expected ${min} to ${max}, got ${value}`);
  return value;
}

/**
 * The longest back-off after failed authentications. LOTLINE_AUTH_FAILURE_WINDOW, the old name (a fixed lockout
 * window, also the longest refusal), is read as it, so an existing deployment keeps its bound.
 */
function maxBackoff(read: Reader): number {
  const name =
    read("LOTLINE_AUTH_FAILURE_BACKOFF_MAX") === undefined && read("LOTLINE_AUTH_FAILURE_WINDOW") !== undefined
      ? "LOTLINE_AUTH_FAILURE_WINDOW"
      : "LOTLINE_AUTH_FAILURE_BACKOFF_MAX";
  return integer(read, name, 300, 1, 86_400);
}

/**
 * LOTLINE_MANAGEMENT_HOST (loopback) and LOTLINE_MANAGEMENT_PORT. The default port is the service's + 1000, so
 * several processes on one machine each get their own; with PORT 0 (any free port) it is 0 as well.
 */
function managementListener(read: Reader, port: number): ManagementListener {
  const host = read("LOTLINE_MANAGEMENT_HOST") ?? "127.0.0.1";
  if (read("LOTLINE_MANAGEMENT_PORT") !== undefined) {
    return { host, port: integer(read, "LOTLINE_MANAGEMENT_PORT", 0, 0, 65_535), required: true };
  }
  const derived = port === 0 ? 0 : port + 1000;
  if (derived > 65_535) {
    throw new ConfigError("LOTLINE_MANAGEMENT_PORT", `PORT ${port} + 1000 is no port; set LOTLINE_MANAGEMENT_PORT`);
  }
  return { host, port: derived, required: false };
}

function origin(read: Reader, name: string, fallback: string): string {
  const raw = read(name) ?? fallback;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, `expected an absolute http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigError(name, `expected an http or https URL, got "${raw}"`);
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new ConfigError(name, "must not carry credentials, a query or a fragment");
  }
  return url.href.replace(/\/+$/, "");
}

/**
 * An optional XYZ tile URL template such as `https://tiles.example.com/{z}/{x}/{y}.png`: http(s), no
 * credentials (the pages publish it to every browser), and every one of `{z}`, `{x}` and `{y}`.
 */
function tileTemplate(read: Reader, name: string): string | null {
  const raw = read(name);
  if (raw === undefined) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, `expected an absolute http(s) URL template, got "${raw}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigError(name, `expected an http or https URL template, got "${raw}"`);
  }
  if (url.username || url.password) throw new ConfigError(name, "must not carry credentials");
  const missing = ["{z}", "{x}", "{y}"].filter((placeholder) => !raw.includes(placeholder));
  if (missing.length > 0) {
    throw new ConfigError(name, `an XYZ template needs {z}, {x} and {y}; "${raw}" lacks ${missing.join(", ")}`);
  }
  return raw;
}

function databaseUrl(read: Reader, name: string): string {
  const raw = read(name) ?? "sqlite:./data/lotline.db";
  if (/^sqlite:.+/.test(raw) || /^postgres(ql)?:\/\/.+/.test(raw)) return raw;
  throw new ConfigError(name, `expected sqlite:PATH or postgres://…, got "${raw}"`);
}

function oneOf(read: Reader, name: string, fallback: string, allowed: string[]): string {
  const raw = read(name) ?? fallback;
  if (!allowed.includes(raw)) throw new ConfigError(name, `expected one of ${allowed.join(", ")}, got "${raw}"`);
  return raw;
}

/** `true`/`false`, or a comma-separated list of proxy addresses or CIDR ranges. */
function trustProxy(read: Reader, name: string): boolean | string[] {
  const raw = read(name);
  if (raw === undefined || raw === "false") return false;
  if (raw === "true") return true;
  const entries = raw.split(",").map((entry) => entry.trim());
  if (entries.some((entry) => !/^[0-9a-fA-F.:]+(\/\d{1,3})?$/.test(entry))) {
    throw new ConfigError(name, `expected true, false or proxy addresses/CIDRs, got "${raw}"`);
  }
  return entries;
}
