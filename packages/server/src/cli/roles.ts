/** What a `lotline serve` process runs: everything, only the HTTP API, or only the background workers. */
export const ROLES = ["all", "api", "worker"] as const;
export type Role = (typeof ROLES)[number];
