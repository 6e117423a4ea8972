import { LotlineError } from "./lotline-error.js";

/**
 * An option given to the SDK cannot work, so it is refused when the object is created (or, for
 * `fetchIframeToken`, before any request) rather than at the first request. The `message` names the option and
 * the form it expects; fix the configuration, retrying will not help.
 *
 * @example
 * ```ts
 * // Throws: tokenUrl must be the token endpoint, like https://lotline.example/oauth/token, or an origin, …
 * createTokenProvider({ tokenUrl: "https://lotline.example/oauth", clientId, clientSecret, audience });
 * ```
 */
export class ConfigurationError extends LotlineError {
  declare readonly code: "invalid_configuration";
  /** The option that is wrong, e.g. `tokenUrl`. */
  readonly option: string;

  constructor(option: string, message: string) {
    super("invalid_configuration", message);
    this.option = option;
  }
}
