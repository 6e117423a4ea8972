/** What the page can learn about the origin of the page framing it. */
export interface FramingClues {
  /** `location.ancestorOrigins[0]`, where the browser offers it (Chromium, Safari). */
  ancestorOrigin?: string | undefined;
  /** `document.referrer`; empty under `Referrer-Policy: no-referrer`, or when the host sends none. */
  referrer?: string | undefined;
}

/**
 * The exact origins to post a message to: the framing page's origin when a clue names it and it is registered;
 * otherwise every registered origin, since the browser delivers a message only when `targetOrigin` matches the
 * receiving window, so at most the right one receives it. Never `*`; nothing when nothing is registered.
 *
 * @example targetOrigins({ ancestorOrigin: "https://core.example" }, ["https://core.example"]) // ["https://core.example"]
 */
export function targetOrigins(clues: FramingClues, registered: readonly string[]): string[] {
  const known = [clues.ancestorOrigin, originOf(clues.referrer)].find(
    (origin) => origin !== undefined && registered.includes(origin),
  );
  if (known !== undefined) return [known];
  return [...new Set(registered)].filter((origin) => origin !== "*");
}

function originOf(url: string | undefined): string | undefined {
  if (url === undefined || url === "") return undefined;
  try {
    const origin = new URL(url).origin;
    return origin === "null" ? undefined : origin;
  } catch {
    return undefined;
  }
}
