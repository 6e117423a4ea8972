import { lookup as dnsLookup } from "node:dns/promises";
import { isIP } from "node:net";
import { type AddressClass, addressClass } from "./address-class.js";
import { BlockedAddressError } from "./blocked-address-error.js";
import { HostLookupError } from "./host-lookup-error.js";

/** Every address of a host name, like `dns.promises.lookup(hostname, { all: true })`; injectable for tests. */
export type HostLookup = (hostname: string) => Promise<readonly { address: string; family: number }[]>;

/** The system resolver (getaddrinfo, so `/etc/hosts` counts), every address, in the resolver's order. */
export const systemLookup: HostLookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** What a host in `LOTLINE_WEBHOOK_ALLOW_HOSTS` may reach besides public addresses. */
const ALLOWABLE: ReadonlySet<AddressClass> = new Set(["private", "loopback", "carrier_grade_nat"]);

/**
 * The address to connect to for a webhook to `hostname` (a name, an IP literal, or a bracketed IPv6 literal as
 * in `URL.hostname`). Every address the name resolves to is checked, and one bad address refuses the host:
 * {@link BlockedAddressError} (`blocked_address`) when any is private, loopback, link-local, metadata,
 * unspecified, multicast, reserved, carrier-grade NAT or an IPv4-mapped form (see `addressClass`);
 * {@link HostLookupError} (`dns_failed`) when the name does not resolve.
 *
 * When `hostname` is in `allowHosts` (LOTLINE_WEBHOOK_ALLOW_HOSTS, compared lower-case without brackets or a
 * trailing dot), private, loopback and carrier-grade NAT addresses pass; link-local, metadata and the rest
 * stay refused. Connect to the address returned, never resolve the name again: that is what was checked.
 */
export async function resolveSafeAddress(
  hostname: string,
  allowHosts: readonly string[],
  lookup: HostLookup = systemLookup,
): Promise<string> {
  const host = bare(hostname);
  const allowed = allowHosts.some((entry) => bare(entry) === host);
  let addresses: readonly string[];
  if (isIP(host)) {
    addresses = [host];
  } else {
    try {
      addresses = (await lookup(host)).map((found) => found.address);
    } catch (error) {
      throw new HostLookupError(host, error);
    }
  }
  const [first] = addresses;
  if (first === undefined) throw new HostLookupError(host, new Error("no addresses"));
  for (const address of addresses) {
    const reason = addressClass(address);
    if (reason !== undefined && !(allowed && ALLOWABLE.has(reason))) {
      throw new BlockedAddressError(host, address, reason);
    }
  }
  return first;
}

function bare(host: string): string {
  return host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.$/, "");
}
