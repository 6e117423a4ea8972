/**
 * Words of letters, digits, `/` and `-`, one space apart, each perhaps led by a `#`, in segments after `,` or `, `
 * (`4 CANAL PK #C1, Cambridge, MA`): text that folding changes only in case and by setting each `#` apart.
 */
const PLAIN_SEGMENTS = /^#?[A-Za-z0-9/-]+(?: #?[A-Za-z0-9/-]+)*(?:, ?#?[A-Za-z0-9/-]+(?: #?[A-Za-z0-9/-]+)*)*$/;

/**
 * Folds free text into the comma-separated segments of an address, each one upper case with single spaces:
 * accents dropped, apostrophes closed up (`O'Brien` → `OBRIEN`), parenthesised asides dropped (`394(390)` → `394`),
 * a period kept only between digits (`12.5`), `#` set apart as a word of its own where it starts a word or follows
 * letters (`#3`, `APT#3`; not `89/91#1`), and every other character but letters, digits, `/` and `-` turned into
 * a space. Empty segments are dropped.
 *
 * @example foldSegments("120 Gore St., Cambridge") // ["120 GORE ST", "CAMBRIDGE"]
 */
export function foldSegments(text: string): string[] {
  // Most lines of an assessor's or a county's file are already plain words: nothing to fold but their case.
  if (PLAIN_SEGMENTS.test(text)) return text.toUpperCase().replaceAll("#", "# ").split(/, ?/);
  const ascii = /^[\x20-\x7e]*$/.test(text) ? text : text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
  const folded = ascii
    .toUpperCase()
    .replace(/\([^)]*\)/g, " ")
    .replace(/['’‘`´]/g, "")
    .replace(/(?<!\d)\.|\.(?!\d)/g, " ")
    .replace(/(^|[^0-9/#-])#/g, "$1 # ")
    .replace(/[^A-Z0-9#/,. -]/g, " ");
  return folded
    .split(",")
    .map((segment) => segment.replace(/\s+/g, " ").trim())
    .filter((segment) => segment !== "");
}

/** The words of one folded segment. */
export function words(segment: string): string[] {
  return segment === "" ? [] : segment.split(" ");
}
