import { describe, expect, it } from "vitest";
import { ConfigError, flagName, loadConfig, type Settings } from "./config.js";

/** The error `loadConfig(env)` throws; fails the test if it throws nothing or something else. */
function configError(env: Settings, overrides: Settings = {}): ConfigError {
  try {
    loadConfig(env, overrides);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe("loadConfig (DESIGN.md §3)", () => {
  it("applies the documented defaults when nothing is set", () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.host).toBe("127.0.0.1");
    expect(config.publicUrl).toBe("http://127.0.0.1:8080");
    expect(config.apiAudience).toBe("http://127.0.0.1:8080/v1");
    expect(config.iframeTokenTtlSeconds).toBe(3600);
    expect(config.databaseUrl).toBe("sqlite:./data/lotline.db");
    expect(config.webhookAllowHosts).toEqual([]);
    expect(config.trustProxy).toBe(false);
    expect(config.mapImageryUrl).toBeNull();
    expect(config.mapImageryAttribution).toBeNull();
    expect(config.shutdownTimeoutSeconds).toBe(8);
  });

  it("derives the default public URL and audience from PORT", () => {
    const config = loadConfig({ PORT: "9123" });
    expect(config.port).toBe(9123);
    expect(config.publicUrl).toBe("http://127.0.0.1:9123");
    expect(config.apiAudience).toBe("http://127.0.0.1:9123/v1");
  });

  it("derives the audience from an explicit public URL, and LOTLINE_API_AUDIENCE replaces it", () => {
    expect(loadConfig({ LOTLINE_PUBLIC_URL: "https://lotline.example.com" }).apiAudience).toBe(
      "https://lotline.example.com/v1",
    );
    const config = loadConfig({ LOTLINE_PUBLIC_URL: "https://lotline.example.com", LOTLINE_API_AUDIENCE: "urn:api" });
    expect(config.apiAudience).toBe("urn:api");
  });

  it("lets overrides (serve flags) win over the environment, and ignores unset overrides", () => {
    const env = { PORT: "9000", HOST: "0.0.0.0", LOTLINE_PUBLIC_URL: "https://env.example.com" };
    const config = loadConfig(env, { PORT: "9100", LOTLINE_PUBLIC_URL: "https://flag.example.com" });
    expect(config.port).toBe(9100);
    expect(config.host).toBe("0.0.0.0");
    expect(config.publicUrl).toBe("https://flag.example.com");
    expect(loadConfig(env, { PORT: undefined }).port).toBe(9000);
  });

  it("names each flag after its variable", () => {
    expect(flagName("PORT")).toBe("port");
    expect(flagName("LOTLINE_PUBLIC_URL")).toBe("public-url");
    expect(flagName("LOTLINE_DATABASE_URL")).toBe("database-url");
  });

  it("trims a trailing slash from the public URL, so issuer and links have no double slash", () => {
    expect(loadConfig({ LOTLINE_PUBLIC_URL: "https://lotline.example.com/" }).publicUrl).toBe(
      "https://lotline.example.com",
    );
    const behindPath = loadConfig({ LOTLINE_PUBLIC_URL: "https://example.com/lotline/" });
    expect(behindPath.publicUrl).toBe("https://example.com/lotline");
    expect(behindPath.apiAudience).toBe("https://example.com/lotline/v1");
  });

  it("accepts sqlite and postgres database URLs", () => {
    expect(loadConfig({ LOTLINE_DATABASE_URL: "sqlite:/tmp/x.db" }).databaseUrl).toBe("sqlite:/tmp/x.db");
    expect(loadConfig({ LOTLINE_DATABASE_URL: "postgres://u@db/lotline" }).databaseUrl).toBe("postgres://u@db/lotline");
    expect(loadConfig({ LOTLINE_DATABASE_URL: "postgresql://u@db/lotline" }).databaseUrl).toBe(
      "postgresql://u@db/lotline",
    );
  });

  it("parses LOTLINE_WEBHOOK_ALLOW_HOSTS as a comma-separated list of lower-case hosts", () => {
    const config = loadConfig({ LOTLINE_WEBHOOK_ALLOW_HOSTS: " 127.0.0.1, LocalHost ,,hooks.internal " });
    expect(config.webhookAllowHosts).toEqual(["127.0.0.1", "localhost", "hooks.internal"]);
  });

  it("reads LOTLINE_TRUST_PROXY as true, false or a list of addresses", () => {
    expect(loadConfig({ LOTLINE_TRUST_PROXY: "true" }).trustProxy).toBe(true);
    expect(loadConfig({ LOTLINE_TRUST_PROXY: "false" }).trustProxy).toBe(false);
    expect(loadConfig({ LOTLINE_TRUST_PROXY: "10.0.0.0/8, 127.0.0.1" }).trustProxy).toEqual([
      "10.0.0.0/8",
      "127.0.0.1",
    ]);
  });

  it("reads the failure back-off, keeping LOTLINE_AUTH_FAILURE_WINDOW as the old name of its cap", () => {
    expect(loadConfig({}).authFailureLimits).toEqual({ perCredential: 20, perAddress: 100, maxBackoffSeconds: 300 });
    expect(loadConfig({ LOTLINE_AUTH_FAILURE_WINDOW: "900" }).authFailureLimits.maxBackoffSeconds).toBe(900);
    const both = { LOTLINE_AUTH_FAILURE_WINDOW: "900", LOTLINE_AUTH_FAILURE_BACKOFF_MAX: "60" };
    expect(loadConfig(both).authFailureLimits.maxBackoffSeconds).toBe(60);
    expect(configError({ LOTLINE_AUTH_FAILURE_WINDOW: "0" }).variable).toBe("LOTLINE_AUTH_FAILURE_WINDOW");
  });

  it("puts the management listener on loopback at PORT + 1000, unless LOTLINE_MANAGEMENT_HOST/PORT say", () => {
    expect(loadConfig({}).management).toEqual({ host: "127.0.0.1", port: 9080, required: false });
    expect(loadConfig({ PORT: "9123" }).management.port).toBe(10_123);
    expect(loadConfig({ PORT: "0" }).management.port).toBe(0);
    expect(loadConfig({ LOTLINE_MANAGEMENT_PORT: "9990", LOTLINE_MANAGEMENT_HOST: "10.0.0.5" }).management).toEqual({
      host: "10.0.0.5",
      port: 9990,
      required: true,
    });
    expect(loadConfig({}, { LOTLINE_MANAGEMENT_PORT: "0" }).management).toEqual({
      host: "127.0.0.1",
      port: 0,
      required: true,
    });
    expect(flagName("LOTLINE_MANAGEMENT_PORT")).toBe("management-port");
    expect(configError({ PORT: "65000" }).variable).toBe("LOTLINE_MANAGEMENT_PORT");
    expect(loadConfig({ PORT: "65000", LOTLINE_MANAGEMENT_PORT: "9000" }).management.port).toBe(9000);
  });

  it("reads the map imagery template and its attribution, and lets flags set them", () => {
    const config = loadConfig({
      LOTLINE_MAP_IMAGERY_URL: " https://tiles.example.com/imagery/{z}/{y}/{x}.jpg?layer=2020 ",
      LOTLINE_MAP_IMAGERY_ATTRIBUTION: "Imagery © Example County",
    });
    expect(config.mapImageryUrl).toBe("https://tiles.example.com/imagery/{z}/{y}/{x}.jpg?layer=2020");
    expect(config.mapImageryAttribution).toBe("Imagery © Example County");
    expect(flagName("LOTLINE_MAP_IMAGERY_URL")).toBe("map-imagery-url");
    const flagged = loadConfig({}, { LOTLINE_MAP_IMAGERY_URL: "http://127.0.0.1:9000/{z}/{x}/{y}.png" });
    expect(flagged.mapImageryUrl).toBe("http://127.0.0.1:9000/{z}/{x}/{y}.png");
  });

  it("treats an empty variable as unset", () => {
    expect(loadConfig({ PORT: "", LOTLINE_PUBLIC_URL: "  " }).publicUrl).toBe("http://127.0.0.1:8080");
  });

  it.each([
    ["PORT", "abc"],
    ["PORT", "70000"],
    ["PORT", "-1"],
    ["LOTLINE_PUBLIC_URL", "ftp://x"],
    ["LOTLINE_PUBLIC_URL", "lotline.example.com"],
    ["LOTLINE_PUBLIC_URL", "https://lotline.example.com/?tenant=1"],
    ["LOTLINE_PUBLIC_URL", "https://lotline.example.com/#top"],
    ["LOTLINE_PUBLIC_URL", "https://user:pw@lotline.example.com"],
    ["LOTLINE_DATABASE_URL", "mysql://x"],
    ["LOTLINE_DATABASE_URL", "sqlite:"],
    ["LOTLINE_IFRAME_TOKEN_TTL", "10"],
    ["LOTLINE_IFRAME_TOKEN_TTL", "1h"],
    ["LOTLINE_LOG_LEVEL", "loud"],
    ["LOTLINE_TRUST_PROXY", "garbage"],
    ["LOTLINE_AUTH_FAILURE_BACKOFF_MAX", "0"],
    ["LOTLINE_MANAGEMENT_PORT", "70000"],
    ["LOTLINE_MAP_IMAGERY_URL", "tiles.example.com/{z}/{x}/{y}.png"],
    ["LOTLINE_MAP_IMAGERY_URL", "ftp://tiles.example.com/{z}/{x}/{y}.png"],
    ["LOTLINE_MAP_IMAGERY_URL", "https://tiles.example.com/{z}/{x}.png"],
    ["LOTLINE_MAP_IMAGERY_URL", "https://tiles.example.com/tile.png"],
    ["LOTLINE_MAP_IMAGERY_URL", "https://user:pw@tiles.example.com/{z}/{x}/{y}.png"],
    ["LOTLINE_SHUTDOWN_TIMEOUT", "-1"],
    ["LOTLINE_SHUTDOWN_TIMEOUT", "10s"],
  ])("refuses %s=%s with a ConfigError naming the variable", (variable, value) => {
    const error = configError({ [variable]: value });
    expect(error.variable).toBe(variable);
    expect(error.message.startsWith(`${variable}: `)).toBe(true);
  });

  it("checks a flag's value as strictly as the variable's, naming the variable", () => {
    const error = configError({ PORT: "8080" }, { PORT: "not-a-port" });
    expect(error.message).toMatch(/^PORT: /);
  });
});
