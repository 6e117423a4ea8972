/** Settings as `process.env` holds them (a plain object in tests). */
export type Env = Record<string, string | undefined>;

/** A required setting: fails at start-up, not at the first request, when it is missing. */
export function setting(env: Env, name: string): string {
  const value = env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}
