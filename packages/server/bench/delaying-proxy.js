/**
 * A TCP proxy that holds every chunk for a while in each direction: a database "across a network" on loopback,
 * for `round-trips.bench.js`. Run as its own process, so that the delays do not wait on the measured process's
 * event loop: `node delaying-proxy.js TARGET_HOST TARGET_PORT ONE_WAY_MS`; prints the port it listens on.
 */
import { connect, createServer } from "node:net";

const [host, port, oneWayMs] = process.argv.slice(2);

/** Writes each chunk `oneWayMs` after it came, in the order it came. */
const forward = (to) => (chunk) => setTimeout(() => to.write(chunk), Number(oneWayMs));

const proxy = createServer((client) => {
  const server = connect(Number(port), host);
  for (const socket of [client, server]) {
    socket.setNoDelay(true);
    socket.on("error", () => {});
    socket.on("close", () => {
      client.destroy();
      server.destroy();
    });
  }
  client.on("data", forward(server));
  server.on("data", forward(client));
});
proxy.listen(0, "127.0.0.1", () => process.stdout.write(`${proxy.address().port}\n`));
