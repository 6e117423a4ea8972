import { ConfigurationError } from "../errors/configuration-error.js";

/** The SDK's address options, each naming one of Lotline's endpoints. */
export type EndpointOption = "tokenUrl" | "iframeAuthUrl" | "baseUrl";

/** Where each endpoint lives on Lotline's origin, and how to name it in an error. */
const ENDPOINTS: Record<EndpointOption, { path: string; what: string }> = {
  tokenUrl: { path: "/oauth/token", what: "the token endpoint" },
  iframeAuthUrl: { path: "/auth/signin/integration", what: "the iframe sign-in endpoint" },
  baseUrl: { path: "/v1", what: "the data API address" },
};

/**
 * The URL to call for one of the address options, by one rule for all three:
 *
 * - a URL whose path is empty or `/` is Lotline's origin, and the endpoint's standard path is appended
 *   (`https://lotline.example` → `https://lotline.example/oauth/token`; for `baseUrl`, `/v1`);
 * - a URL whose path ends with the standard path is the endpoint itself and is used as given (a trailing `/`
 *   dropped), so both the full URL an OAuth library takes (`https://lotline.example/oauth/token`) and a service
 *   mounted under a prefix by a reverse proxy (`https://gateway.example/lotline/oauth/token`) work;
 * - anything else throws {@link ConfigurationError} naming the expected form: another path
 *   (`https://lotline.example/oauth`, `https://lotline.example/v2`), a scheme other than http or https,
 *   credentials, a query or a fragment.
 *
 * A path that is neither is refused rather than taken as a prefix, because it is far more often a wrong or
 * truncated endpoint than a proxy prefix, and guessing would turn a configuration mistake into 404s at run time.
 */
export function endpointUrl(option: EndpointOption, value: string): string {
  const { path } = ENDPOINTS[option];
  const url = parse(option, value);
  const given = url.pathname.replace(/\/+$/, "");
  if (given === "") return `${url.origin}${path}`;
  if (given.endsWith(path)) return `${url.origin}${given}`;
  throw refused(option, `got the path ${given}`);
}

/** An absolute http(s) URL with nothing but an origin and a path. */
function parse(option: EndpointOption, value: string): URL {
  if (typeof value !== "string" || value.trim() === "") throw refused(option, "got nothing");
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    // The value is not echoed: whatever was pasted here instead of a URL may be a secret.
    throw refused(option, "got something that is not a URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw refused(option, `got the scheme ${url.protocol}`);
  if (url.username !== "" || url.password !== "") throw refused(option, "got credentials in the URL");
  // `href` holds a `?` or `#` only for a query or fragment, even an empty one (`search` is "" for a bare `?`).
  if (url.href.includes("?") || url.href.includes("#")) throw refused(option, "got a query or fragment");
  return url;
}

function refused(option: EndpointOption, problem: string): ConfigurationError {
  const { path, what } = ENDPOINTS[option];
  return new ConfigurationError(
    option,
    `${option} must be ${what}, like https://lotline.example${path}, or an origin, like https://lotline.example ` +
      `(the path ${path} is then added); ${problem}`,
  );
}
