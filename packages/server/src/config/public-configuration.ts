import type { Config } from "./config.js";

/**
 * What a client of the service must be told to reach it: its external origin (the token and sign-in endpoints are
 * under it) and the audience its token endpoint accepts.
 */
export interface PublicConfiguration {
  publicUrl: string;
  apiAudience: string;
}

export function publicConfigurationOf(config: Config): PublicConfiguration {
  return { publicUrl: config.publicUrl, apiAudience: config.apiAudience };
}

export function samePublicConfiguration(a: PublicConfiguration, b: PublicConfiguration): boolean {
  return a.publicUrl === b.publicUrl && a.apiAudience === b.apiAudience;
}
