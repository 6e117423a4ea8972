/** What the host page gets from `POST /token`: Lotline's answer plus the seconds the token has left. */
export interface HostToken {
  token: string;
  expires: string;
  /** Seconds the token lives, from its own `iat` and `exp`: the page schedules its refresh from this. */
  expires_in: number;
}

/** Where and as whom the core system signs in to Lotline for an iframe token. */
export interface IframeSignin {
  lotlineUrl: string;
  orgId: string;
  iframeApiKey: string;
}

/** Lotline refused the sign-in or could not be reached; `status` is Lotline's HTTP status when it answered. */
export class IframeSigninError extends Error {
  override name = "IframeSigninError";

  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/**
 * Signs in to Lotline's iframe endpoint (`POST /auth/signin/integration`, HTTP Basic with the organization id
 * and the iframe API key) on the server side, so the key never reaches a browser. Throws
 * {@link IframeSigninError}.
 */
export async function fetchIframeToken({ lotlineUrl, orgId, iframeApiKey }: IframeSignin): Promise<HostToken> {
  let response: Response;
  try {
    response = await fetch(`${lotlineUrl}/auth/signin/integration`, {
      method: "POST",
      headers: { authorization: `Basic ${Buffer.from(`${orgId}:${iframeApiKey}`).toString("base64")}` },
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    throw new IframeSigninError(`Lotline could not be reached: ${(error as Error).message}`);
  }
  if (response.status !== 200) {
    await response.arrayBuffer();
    throw new IframeSigninError(`Lotline refused the sign-in with ${response.status}`, response.status);
  }
  const body = (await response.json()) as { token?: unknown; expires?: unknown };
  if (typeof body.token !== "string" || typeof body.expires !== "string") {
    throw new IframeSigninError("Lotline's sign-in answer lacks token or expires");
  }
  return { token: body.token, expires: body.expires, expires_in: lifetimeSeconds(body.token, body.expires) };
}

/**
 * The token's lifetime as Lotline issued it (`exp − iat`), which needs no agreement between this server's clock
 * and Lotline's; the token was issued a moment ago. Falls back on `expires` against this server's clock.
 */
function lifetimeSeconds(token: string, expires: string): number {
  try {
    const claims = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as {
      iat?: unknown;
      exp?: unknown;
    };
    if (typeof claims.iat === "number" && typeof claims.exp === "number") return Math.max(0, claims.exp - claims.iat);
  } catch {
    // Not a JWT we can read: use the clock below.
  }
  return Math.max(0, Math.floor((Date.parse(expires) - Date.now()) / 1000));
}
