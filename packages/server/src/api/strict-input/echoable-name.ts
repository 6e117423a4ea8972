/** What no stored text may hold: NUL (PostgreSQL refuses it) and a UTF-16 surrogate without its pair (not text). */
export const UNSTORABLE_CHARACTER = /\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Longer member names are cut when echoed: a client's mistake need not come back whole. */
const ECHO_MAX = 64;

/** A member name safe to echo in an answer: unstorable characters shown as `\u0000` escapes, at most 64 characters. */
export function echoableName(name: string): string {
  const shown = name.length > ECHO_MAX ? `${name.slice(0, ECHO_MAX - 1)}…` : name;
  return shown.replace(
    new RegExp(UNSTORABLE_CHARACTER.source, "g"),
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
