/**
 * The base of every error the SDK throws. `code` is stable (safe to switch on, log and alert on); `message` is for
 * people and may change. Catch this class to handle anything the SDK raises, or a subclass for one concern.
 *
 * @example
 * ```ts
 * try {
 *   await api.getOrder(orderId);
 * } catch (error) {
 *   if (error instanceof LotlineError) log.warn({ code: error.code }, error.message);
 *   throw error;
 * }
 * ```
 */
export class LotlineError extends Error {
  /** A stable, machine-readable reason, e.g. `bad_signature` or `invalid_client`. */
  readonly code: string;

  constructor(code: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}
