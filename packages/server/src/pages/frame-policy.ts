import type { Config } from "../config/config.js";

/** Who may frame a page: the organization's registered host origins (none → nobody), or anyone (`/login`). */
export type FrameAncestors = readonly string[] | "anyone";

/**
 * The Content-Security-Policy of a page: everything from the service's own origin, nothing inline, no plugins,
 * no forms, no `<base>`; images and tiles also from the configured imagery origin; framed only by
 * `frameAncestors`. `blob:` workers and images are MapLibre's.
 */
export function contentSecurityPolicy(frameAncestors: FrameAncestors, imageryOrigin: string | null): string {
  const imagery = imageryOrigin === null ? "" : ` ${imageryOrigin}`;
  const ancestors = frameAncestors === "anyone" ? "*" : frameAncestors.join(" ") || "'none'";
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data: blob:${imagery}`,
    `connect-src 'self'${imagery}`,
    "worker-src 'self' blob:",
    "font-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${ancestors}`,
  ].join("; ");
}

/**
 * The headers of every page answer. No `X-Frame-Options`: it cannot name several origins, and browsers that know
 * `frame-ancestors` ignore it anyway. `no-referrer` keeps the page's address — which carries the JWT until the
 * page removes it — out of every request the page makes; `no-store` keeps it out of caches.
 */
export function pageHeaders(frameAncestors: FrameAncestors, imageryOrigin: string | null): Record<string, string> {
  return {
    "content-security-policy": contentSecurityPolicy(frameAncestors, imageryOrigin),
    "referrer-policy": "no-referrer",
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
  };
}

/** The origin the configured imagery tiles come from, or null when no imagery is configured. */
export function imageryOrigin(config: Config): string | null {
  return config.mapImageryUrl === null ? null : new URL(config.mapImageryUrl).origin;
}
