import http from "node:http";
import https from "node:https";

/** Receivers whose connections are kept; past this the least recently used receiver's are closed. */
const MAX_RECEIVERS = 256;

/** Idle connections close after this: under the 5 s a Node receiver keeps one open, so it is rarely closed first. */
const IDLE_MS = 4000;

/** Connections open to one receiver address at once, at most. */
const MAX_SOCKETS = 16;

const agents = new Map<string, http.Agent>();

/**
 * The keep-alive agent for one checked receiver address: a core system receiving an order's webhooks gets them
 * over a few open connections instead of a new TCP (and TLS) handshake each time. Agents are per address, never
 * per host name, so a pooled connection only ever goes to an address `resolveSafeAddress` let through.
 */
export function receiverAgent(protocol: "http:" | "https:", address: string): http.Agent {
  const key = `${protocol}//${address}`;
  let agent = agents.get(key);
  if (agent) {
    agents.delete(key);
  } else {
    const options = { keepAlive: true, maxSockets: MAX_SOCKETS, timeout: IDLE_MS };
    agent = protocol === "https:" ? new https.Agent(options) : new http.Agent(options);
  }
  agents.set(key, agent);
  for (const [oldest, old] of agents) {
    if (agents.size <= MAX_RECEIVERS) break;
    agents.delete(oldest);
    old.destroy();
  }
  return agent;
}
