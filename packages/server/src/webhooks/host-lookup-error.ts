import { DomainError } from "../errors.js";

/** A webhook host could not be resolved (code `dns_failed`); DNS failures are often passing, so retry. */
export class HostLookupError extends DomainError {
  constructor(
    readonly hostname: string,
    cause: unknown,
  ) {
    const detail = cause instanceof Error ? ((cause as NodeJS.ErrnoException).code ?? cause.message) : String(cause);
    super("dns_failed", `cannot resolve ${hostname}: ${detail}`);
    this.cause = cause;
  }
}
