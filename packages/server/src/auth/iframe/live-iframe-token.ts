import type { Services } from "../../services.js";
import { type IframeSession, verifyIframeToken } from "../tokens/iframe-token.js";
import { InvalidTokenError } from "../tokens/jwt.js";

/**
 * A genuine, unexpired iframe token signed in with an iframe key that has since been revoked. Its session has ended
 * as if it had expired; `orgId` says whose it was, so `/login` can tell that organization's host.
 */
export class RevokedIframeKeyError extends InvalidTokenError {
  override name = "RevokedIframeKeyError";

  constructor(readonly orgId: string) {
    super("the iframe key this session was signed in with has been revoked");
  }
}

/**
 * The check of the pages and the page API: a live iframe token of ours whose iframe key is not revoked (as
 * {@link Revocations} last loaded them, at most 30 s ago). Throws {@link InvalidTokenError} otherwise, and
 * {@link RevokedIframeKeyError} when the key's revocation is the one fault. A token issued before tokens named
 * their key carries no `ikid` and lives out its time (at most 24 hours); `lotline keys revoke` ends it if need be.
 */
export async function verifyLiveIframeToken(
  { keys, config, revocations }: Services,
  token: string,
): Promise<IframeSession> {
  const session = await verifyIframeToken(keys, config, token);
  if (session.iframeKeyId !== undefined && (await revocations.isIframeKeyRevoked(session.iframeKeyId))) {
    throw new RevokedIframeKeyError(session.orgId);
  }
  return session;
}
