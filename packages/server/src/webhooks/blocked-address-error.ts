import { DomainError } from "../errors.js";
import type { AddressClass } from "./address-class.js";

/** A webhook host resolved to an address webhooks may not reach (code `blocked_address`); retrying won't help. */
export class BlockedAddressError extends DomainError {
  constructor(
    readonly hostname: string,
    readonly address: string,
    readonly reason: AddressClass,
  ) {
    super("blocked_address", `${hostname} resolves to ${address}, a ${reason.replaceAll("_", "-")} address`);
  }
}
