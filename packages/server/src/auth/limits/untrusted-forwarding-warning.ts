import { BlockList, isIP, isIPv4, isIPv6 } from "node:net";
import type { FastifyInstance } from "fastify";
import type { Config } from "../../config/config.js";

/**
 * Logs one warning, on the first request that carries `X-Forwarded-For` from a peer LOTLINE_TRUST_PROXY does not
 * name. Behind an unnamed proxy every caller shares the proxy's address, so the failure throttle slows down all of
 * them together when one of them guesses. With `true`, every peer is believed, so nothing is warned of here (the
 * service warns of that when it starts).
 */
export function warnOfUntrustedForwarding(app: FastifyInstance, { trustProxy }: Pick<Config, "trustProxy">): void {
  if (trustProxy === true) return;
  const trusted = trustedPeers(trustProxy === false ? [] : trustProxy);
  let warned = false;
  app.addHook("onRequest", async (request) => {
    if (warned || request.headers["x-forwarded-for"] === undefined) return;
    const peer = request.socket.remoteAddress ?? "";
    if (isTrusted(trusted, peer)) return;
    warned = true;
    request.log.warn(
      { peer },
      "a request came with X-Forwarded-For from a peer LOTLINE_TRUST_PROXY does not name: its header is ignored and " +
        "every client behind that proxy counts as the proxy's address, for failed sign-ins too. If the peer is your " +
        "proxy, add its address to LOTLINE_TRUST_PROXY (warned once)",
    );
  });
}

function trustedPeers(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = "", prefix] = entry.split("/");
    if (isIP(address) === 0) continue;
    const family = isIPv4(address) ? "ipv4" : "ipv6";
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(prefix), family);
  }
  return list;
}

function isTrusted(trusted: BlockList, peer: string): boolean {
  // A dual-stack socket reports IPv4 peers as `::ffff:a.b.c.d`.
  const ipv4 = peer.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "");
  if (isIPv4(ipv4)) return trusted.check(ipv4, "ipv4");
  return isIPv6(peer) && trusted.check(peer, "ipv6");
}
