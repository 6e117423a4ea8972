import semver from "semver";

/**
 * Which Node versions the installed dependencies say they run on, read from package-lock.json (lockfile version 2
 * or 3, whose `packages` map is keyed by install location: `node_modules/a`, `node_modules/a/node_modules/b`,
 * `packages/server`).
 */

/** The fields of one `packages` entry that this check reads. */
export interface LockedPackage {
  version?: string;
  dev?: boolean;
  /** A workspace's entry under node_modules: `resolved` is the workspace's folder. */
  link?: boolean;
  resolved?: string;
  /** Usually `{ node: ">=18" }`; a few old packages have an array, which npm ignores. */
  engines?: Record<string, string> | string[];
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

export interface Lockfile {
  packages: Record<string, LockedPackage>;
}

/** A package whose `engines.node` leaves out the Node version it must run on. */
export interface EngineConflict {
  location: string;
  version: string | undefined;
  node: string;
}

/** What a walk through the dependencies reached, and the required dependencies it could not find. */
export interface Reached {
  locations: Set<string>;
  unresolved: string[];
}

/**
 * The locations of everything the `roots` (workspace folders, or `""` for the root project) depend on at run
 * time, at any depth: `dependencies`, `optionalDependencies` and peer dependencies, each resolved as Node resolves
 * it (the nearest `node_modules` going up from the dependent), through workspace links. The dependencies of a
 * workspace in `leaves` are not followed: it is used for something other than its dependencies (its build).
 */
export function reachedFrom(lock: Lockfile, roots: readonly string[], leaves: readonly string[] = []): Reached {
  const locations = new Set<string>();
  const unresolved: string[] = [];
  const pending = [...roots];
  for (let location = pending.pop(); location !== undefined; location = pending.pop()) {
    if (locations.has(location)) continue;
    locations.add(location);
    const entry = lock.packages[location];
    if (entry === undefined || leaves.includes(location)) continue;
    for (const [name, optional] of runtimeDependencies(entry)) {
      const found = resolve(lock, location, name);
      if (found === undefined) {
        if (!optional) unresolved.push(`${location || "(root)"} → ${name}`);
        continue;
      }
      const target = lock.packages[found];
      pending.push(target?.link && target.resolved !== undefined ? target.resolved : found);
    }
  }
  return { locations, unresolved };
}

/** Each run-time dependency's name, and whether it may be absent. */
function runtimeDependencies(entry: LockedPackage): Array<[string, boolean]> {
  const optionalPeer = (name: string) => entry.peerDependenciesMeta?.[name]?.optional === true;
  return [
    ...Object.keys(entry.dependencies ?? {}).map((name): [string, boolean] => [name, false]),
    ...Object.keys(entry.optionalDependencies ?? {}).map((name): [string, boolean] => [name, true]),
    ...Object.keys(entry.peerDependencies ?? {}).map((name): [string, boolean] => [name, optionalPeer(name)]),
  ];
}

/** Where Node finds `name` when `from` requires it: `from`'s own node_modules, then each one further up. */
function resolve(lock: Lockfile, from: string, name: string): string | undefined {
  let base = from;
  for (;;) {
    const candidate = base === "" ? `node_modules/${name}` : `${base}/node_modules/${name}`;
    if (lock.packages[candidate] !== undefined) return candidate;
    if (base === "") return undefined;
    const parent = base.lastIndexOf("/node_modules/");
    base = parent === -1 ? "" : base.slice(0, parent);
  }
}

/**
 * The packages at `locations` whose `engines.node` does not admit `nodeVersion`, judged as npm judges it when it
 * warns `EBADENGINE` (a range that does not parse admits nothing; no `engines.node` admits everything).
 */
export function engineConflicts(lock: Lockfile, locations: Iterable<string>, nodeVersion: string): EngineConflict[] {
  const conflicts: EngineConflict[] = [];
  for (const location of locations) {
    const entry = lock.packages[location];
    const engines = entry?.engines;
    const node = engines !== undefined && !Array.isArray(engines) ? engines.node : undefined;
    if (node === undefined) continue;
    if (!semver.satisfies(nodeVersion, node, { includePrerelease: true })) {
      conflicts.push({ location, version: entry?.version, node });
    }
  }
  return conflicts.sort((a, b) => a.location.localeCompare(b.location));
}

/** The oldest Node version a range admits (`>=20.19` → `20.19.0`). */
export function oldestNode(range: string): string {
  const oldest = semver.minVersion(range);
  if (oldest === null) throw new Error(`engines.node "${range}" admits no version`);
  return oldest.version;
}
