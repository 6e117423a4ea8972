import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { engineConflicts, type Lockfile, oldestNode, reachedFrom } from "./dependency-engines.js";

/**
 * The root package.json promises `engines.node` (`>=20.19`), and CI runs the oldest Node it admits: every
 * dependency that runs on Node must say it supports that version too (npm warns `EBADENGINE` otherwise, and such a
 * package may use what that Node lacks). Read from the committed package-lock.json, so a dependency upgrade that
 * breaks the promise fails here before it reaches a machine.
 */

const ROOT = new URL("../", import.meta.url);
const lock = JSON.parse(readFileSync(new URL("package-lock.json", ROOT), "utf8")) as Lockfile;
const manifest = JSON.parse(readFileSync(new URL("package.json", ROOT), "utf8")) as {
  engines: { node: string };
  workspaces: string[];
};

/**
 * The pages: Vite bundles them and their dependencies (MapLibre, Preact, …) into `dist/` for browsers, and the
 * server only serves those files. Their dependencies never run on Node, so they are not held to its version.
 */
const BROWSER_BUNDLE = "packages/web";
/** The root project and every workspace whose code runs on Node. */
const ON_NODE = ["", ...manifest.workspaces.filter((workspace) => workspace !== BROWSER_BUNDLE)];

describe("the engines the dependencies declare", () => {
  const minimum = oldestNode(manifest.engines.node);
  const onNode = reachedFrom(lock, ON_NODE, [BROWSER_BUNDLE]);

  it(`admit the oldest Node the root package.json admits (${manifest.engines.node}), for every package run on Node`, () => {
    expect(onNode.unresolved).toEqual([]);
    expect(engineConflicts(lock, onNode.locations, minimum)).toEqual([]);
  });

  it("are checked for every package that is not dev-only, unless only the pages' browser bundle uses it", () => {
    const browserOnly = reachedFrom(lock, [BROWSER_BUNDLE]).locations;
    // A workspace's link under node_modules stands for its folder.
    const unchecked = Object.entries(lock.packages)
      .filter(([location, entry]) => location !== "" && entry.dev !== true)
      .map(([location, entry]) => (entry.link && entry.resolved !== undefined ? entry.resolved : location))
      .filter((location) => !onNode.locations.has(location) && !browserOnly.has(location));
    expect(unchecked).toEqual([]);
    // The server's own runtime dependencies, the ones that once needed Node 22, are among those checked.
    expect(onNode.locations).toContain("node_modules/fastify");
    expect(onNode.locations).toContain("node_modules/@fastify/static");
  });
});

describe("engineConflicts over what reachedFrom reaches", () => {
  // The shape of the problem this test was written for: a server dependency pulling in a package that needs
  // Node 22, one of them nested where only its dependent finds it.
  const fixture: Lockfile = {
    packages: {
      "": {},
      "packages/server": {
        dependencies: { "@fastify/static": "^10", fastify: "^5", "@lotline/web": "^0.1.0" },
      },
      "packages/web": { dependencies: { "maplibre-gl": "^6" } },
      "node_modules/@lotline/web": { link: true, resolved: "packages/web" },
      "node_modules/@fastify/static": { version: "10.1.11", dependencies: { "content-disposition": "^3" } },
      "node_modules/content-disposition": { version: "3.0.0", engines: { node: ">=22" } },
      "node_modules/fastify": {
        version: "5.12.8",
        engines: { node: ">=20" },
        dependencies: { "light-my-request": "^6" },
        peerDependencies: { "pino-pretty": "*" },
        peerDependenciesMeta: { "pino-pretty": { optional: true } },
      },
      "node_modules/light-my-request": { version: "6.8.1", dependencies: { cookie: "^2", legacy: "^1" } },
      "node_modules/light-my-request/node_modules/cookie": { version: "2.0.2", engines: { node: ">=22" } },
      "node_modules/cookie": { version: "1.1.1", engines: { node: ">=18" } },
      "node_modules/legacy": { version: "1.0.0", engines: ["node >= 0.4"] },
      "node_modules/maplibre-gl": { version: "6.17.0", engines: { node: ">=22" } },
      "node_modules/vitest": { version: "4.1.12", dev: true, engines: { node: ">=24" } },
      "node_modules/odd": { version: "1.0.0", engines: { node: "latest" } },
    },
  };

  it("finds what needs a newer Node at any depth, resolving nested copies as Node does", () => {
    const reached = reachedFrom(fixture, ["", "packages/server"], ["packages/web"]);
    expect(reached.unresolved).toEqual([]);
    expect(engineConflicts(fixture, reached.locations, "20.19.0")).toEqual([
      { location: "node_modules/content-disposition", version: "3.0.0", node: ">=22" },
      { location: "node_modules/light-my-request/node_modules/cookie", version: "2.0.2", node: ">=22" },
    ]);
    // The hoisted cookie is not the one light-my-request loads; the browser bundle's and dev tools' are not run.
    expect(reached.locations).not.toContain("node_modules/cookie");
    expect(reached.locations).not.toContain("node_modules/maplibre-gl");
    expect(reached.locations).not.toContain("node_modules/vitest");
  });

  it("follows workspace links, reports a missing required dependency, and judges ranges as npm does", () => {
    expect(reachedFrom(fixture, ["packages/server"]).locations).toContain("node_modules/maplibre-gl");
    const broken: Lockfile = {
      packages: Object.fromEntries(Object.entries(fixture.packages).filter(([at]) => at !== "node_modules/legacy")),
    };
    expect(reachedFrom(broken, ["packages/server"]).unresolved).toEqual(["node_modules/light-my-request → legacy"]);
    // A range that does not parse admits nothing; an array of engines is ignored, as npm ignores it.
    expect(engineConflicts(fixture, ["node_modules/odd", "node_modules/legacy"], "20.19.0")).toEqual([
      { location: "node_modules/odd", version: "1.0.0", node: "latest" },
    ]);
  });

  it("takes the oldest version the root's range admits", () => {
    expect(oldestNode(">=20.19")).toBe("20.19.0");
    expect(oldestNode("^20.19.0 || >=22.12")).toBe("20.19.0");
  });
});
