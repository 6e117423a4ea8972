import { describe, expect, it } from "vitest";
import { runCli } from "../test/run-cli.js";

/** `--help` needs no database: it must answer before anything is opened. */
const env = { LOTLINE_DATABASE_URL: "sqlite:/nonexistent/never-opened.db" };

/** The command names `lotline help` lists: the words of each usage line before the first argument. */
async function commandNames(): Promise<string[]> {
  const { stdout } = await runCli(["help"], env);
  return stdout
    .split("\n")
    .slice(1)
    .map((line) => line.trim().split(" "))
    .filter((words) => words[0])
    .map((words) => (["serve", "migrate", "demo"].includes(words[0] ?? "") ? words[0] : words.slice(0, 2).join(" ")))
    .filter((name): name is string => name !== undefined);
}

describe("lotline … --help", () => {
  it("gives every command its usage, what it does and an example that starts with the command", async () => {
    const names = await commandNames();
    expect(names.length).toBeGreaterThan(20);
    for (const name of names) {
      const run = await runCli([...name.split(" "), "--help"], env);
      expect(run.code, name).toBe(0);
      expect(run.stderr, name).toBe("");
      const lines = run.stdout.trimEnd().split("\n");
      expect(lines[0], name).toMatch(new RegExp(`^usage: lotline ${name}\\b`));
      expect(lines[1]?.trim().length, `${name} says what it does`).toBeGreaterThan(10);
      expect(lines[2], name).toMatch(new RegExp(`^  example: lotline ${name}\\b`));
    }
  });

  it("lotline import --help shows the four imports with their options, -h the same", async () => {
    const run = await runCli(["import", "--help"], env);
    expect(run.code).toBe(0);
    for (const kind of ["parcels", "buildings", "addresses", "layer"]) {
      expect(run.stdout).toContain(`usage: lotline import ${kind} FILE`);
    }
    expect(run.stdout).toContain("--max-rejected PERCENT");
    expect((await runCli(["import", "-h"], env)).stdout).toBe(run.stdout);
  });

  it("lotline client create --help shows its flags, even with other arguments given", async () => {
    const run = await runCli(["client", "create", "--org", "org_x", "--help"], env);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("usage: lotline client create --org ORG_ID");
    expect(run.stdout).toContain("example: lotline client create --org ORG_ID --json");
  });

  it("an unknown command with --help is a usage error", async () => {
    const run = await runCli(["frobnicate", "--help"], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/unknown command "frobnicate --help"/);
  });
});
