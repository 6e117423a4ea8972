import { describe, expect, it } from "vitest";
import { ConfigurationError } from "../errors/configuration-error.js";
import { LotlineError } from "../errors/lotline-error.js";
import { type EndpointOption, endpointUrl } from "./endpoint-url.js";

/** The error endpointUrl throws for a value, or a failure when it accepts it. */
function refusal(option: EndpointOption, value: string): ConfigurationError {
  try {
    endpointUrl(option, value);
  } catch (error) {
    if (error instanceof ConfigurationError) return error;
    throw error;
  }
  throw new Error(`${option} accepted ${value}`);
}

const STANDARD: Array<[EndpointOption, string]> = [
  ["tokenUrl", "/oauth/token"],
  ["iframeAuthUrl", "/auth/signin/integration"],
  ["baseUrl", "/v1"],
];

describe.each(STANDARD)("endpointUrl(%s)", (option, path) => {
  it(`adds ${path} to an origin, with or without a trailing slash`, () => {
    expect(endpointUrl(option, "https://lotline.example")).toBe(`https://lotline.example${path}`);
    expect(endpointUrl(option, "https://lotline.example/")).toBe(`https://lotline.example${path}`);
    expect(endpointUrl(option, "http://127.0.0.1:8080")).toBe(`http://127.0.0.1:8080${path}`);
    expect(endpointUrl(option, " HTTPS://Lotline.Example:443 ")).toBe(`https://lotline.example${path}`);
  });

  it("takes the endpoint's full URL as given, a trailing slash dropped", () => {
    expect(endpointUrl(option, `https://lotline.example${path}`)).toBe(`https://lotline.example${path}`);
    expect(endpointUrl(option, `https://lotline.example${path}/`)).toBe(`https://lotline.example${path}`);
    expect(endpointUrl(option, `http://127.0.0.1:8080${path}`)).toBe(`http://127.0.0.1:8080${path}`);
  });

  it("takes a full URL under a reverse proxy's prefix as given", () => {
    expect(endpointUrl(option, `https://gateway.example/lotline${path}`)).toBe(
      `https://gateway.example/lotline${path}`,
    );
    expect(endpointUrl(option, `https://gateway.example/a/b${path}/`)).toBe(`https://gateway.example/a/b${path}`);
  });

  it("refuses another path, naming the option and the form it expects", () => {
    for (const value of [
      "https://lotline.example/lotline",
      `https://lotline.example${path}x`,
      `https://lotline.example/x${path.slice(1)}`,
      `https://lotline.example${path}/more`,
    ]) {
      const error = refusal(option, value);
      expect(error.message).toContain(`${option} must be `);
      expect(error.message).toContain(
        `like https://lotline.example${path}, or an origin, like https://lotline.example`,
      );
      expect(error.option).toBe(option);
    }
  });

  it("refuses what is not an http(s) URL of an origin and a path", () => {
    const problems: Array<[string, string]> = [
      ["", "got nothing"],
      ["lotline.example", "not a URL"],
      [`ftp://lotline.example${path}`, "got the scheme ftp:"],
      ["file:///etc/passwd", "got the scheme file:"],
      [`https://user:secret@lotline.example${path}`, "credentials"],
      [`https://lotline.example${path}?tenant=1`, "query or fragment"],
      [`https://lotline.example${path}?`, "query or fragment"],
      [`https://lotline.example${path}#top`, "query or fragment"],
    ];
    for (const [value, problem] of problems) {
      const error = refusal(option, value);
      expect(error.message, value).toContain(problem);
      expect(error.message).toContain(`${option} must be `);
    }
    // Credentials are not repeated in the message.
    expect(refusal(option, `https://user:secret@lotline.example${path}`).message).not.toContain("secret");
  });
});

describe("endpointUrl's errors", () => {
  it("name the wrong path, as the issue tracker put it", () => {
    expect(refusal("tokenUrl", "https://x.example/oauth").message).toBe(
      "tokenUrl must be the token endpoint, like https://lotline.example/oauth/token, or an origin, like " +
        "https://lotline.example (the path /oauth/token is then added); got the path /oauth",
    );
    expect(refusal("baseUrl", "https://x.example/v2").message).toContain("got the path /v2");
    expect(refusal("iframeAuthUrl", "https://x.example/auth/signin").message).toContain("got the path /auth/signin");
  });

  it("are LotlineErrors with the stable code invalid_configuration", () => {
    const error = refusal("baseUrl", "https://x.example/v2");
    expect(error).toBeInstanceOf(LotlineError);
    expect(error.name).toBe("ConfigurationError");
    expect(error.code).toBe("invalid_configuration");
  });
});
