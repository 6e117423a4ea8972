/**
 * What every benchmark script shares: printing, a table, a whole-number setting from the environment, a free
 * loopback port. Plain JavaScript, so the scripts run over the built output without a build of their own.
 */
import { createServer } from "node:net";

export const print = (line = "") => process.stdout.write(`${line}\n`);

/** Prints `rows` (arrays of strings) under `header`: the first column left-aligned, the others right-aligned. */
export function printTable(header, rows) {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((cell) => cell[i].length)));
  const line = (cell) => cell.map((value, i) => (i === 0 ? value.padEnd(widths[i]) : value.padStart(widths[i])));
  print(line(header).join("  "));
  print(widths.map((width) => "-".repeat(width)).join("  "));
  for (const cell of rows) print(line(cell).join("  "));
}

/** The environment variable `name` as a whole number ≥ 1, or `fallback` when it is unset. */
export function positiveInteger(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name}: expected a whole number ≥ 1, got "${raw}"`);
  return value;
}

/** A loopback port nobody is listening on right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}
