/**
 * The headers of every answer of the core system. Its own Content-Security-Policy allows scripts, styles and
 * requests from itself only, and frames from Lotline's origin only (`frame-src`); nobody may frame the core
 * system itself.
 */
export function hostHeaders(lotlineOrigin: string): Record<string, string> {
  const policy = [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    `frame-src ${lotlineOrigin}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
  return {
    "content-security-policy": policy,
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
    "cache-control": "no-store",
  };
}
