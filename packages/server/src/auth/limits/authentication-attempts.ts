import type { AuthFailureLimits } from "../../config/config.js";
import type { FailureThrottle } from "./failure-throttle.js";

/** A try at authenticating: the credential it names (`client:ID`, `org:ID`) and the address it comes from. */
export interface AuthenticationAttempt {
  credential: string;
  address: string;
}

/** Credentials are cut to this length: real ids are short, and the address must stay part of the key. */
const MAX_CREDENTIAL_LENGTH = 100;

/**
 * Failures are counted per credential *from one address*, and per address. Guessing at an organization or client
 * from one address therefore slows down that address only: the credential's owner, calling from its own address,
 * is never refused for someone else's failures. An address failing with many credentials is slowed down whatever
 * it names.
 */
const credentialKey = ({ credential, address }: AuthenticationAttempt) =>
  `${credential.slice(0, MAX_CREDENTIAL_LENGTH)} from ${address}`;
const addressKey = ({ address }: AuthenticationAttempt) => `address:${address}`;

/** Seconds the attempt must wait before its credential is even compared, else 0. */
export function retryAfterSeconds(
  throttle: FailureThrottle,
  limits: AuthFailureLimits,
  attempt: AuthenticationAttempt,
): number {
  return Math.max(
    throttle.retryAfterSeconds(credentialKey(attempt), limits.perCredential),
    throttle.retryAfterSeconds(addressKey(attempt), limits.perAddress),
  );
}

export function recordFailedAttempt(throttle: FailureThrottle, attempt: AuthenticationAttempt): void {
  throttle.recordFailure(credentialKey(attempt));
  throttle.recordFailure(addressKey(attempt));
}

/**
 * Forgets the credential's failures from that address. The address's own count stays: one valid credential must
 * not let an address wipe the record of its guesses at others.
 */
export function recordSuccessfulAttempt(throttle: FailureThrottle, attempt: AuthenticationAttempt): void {
  throttle.recordSuccess(credentialKey(attempt));
}
