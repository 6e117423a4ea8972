/**
 * A data API token as a {@link TokenStore} keeps it. The expiry is wall-clock epoch milliseconds because a shared
 * store outlives any one process and spans machines, and only the wall clock means the same thing on all of them.
 */
export interface StoredToken {
  /** The bearer token for `Authorization: Bearer …`. */
  accessToken: string;
  /** When the token was issued, in epoch milliseconds: with `expiresAt`, its lifetime, which sets the refresh margin. */
  issuedAt: number;
  /** When the token stops being accepted, in epoch milliseconds. */
  expiresAt: number;
}

/**
 * Where a token provider keeps its token between calls. The default, {@link createMemoryTokenStore}, serves one
 * process. Implement this interface over Redis or a database table so that a fleet of core-system servers shares
 * one token instead of each asking for its own (the service counts issuances and refuses clients that ask far
 * more often than once a day).
 *
 * Keys are opaque strings built from the token URL, client id and audience; values never need to be read by
 * anything but another token provider. Let entries expire on their own at `expiresAt` when the backend can, and
 * treat the store like the secret it holds (the token is a credential for 24 hours).
 *
 * @example A Redis store (node-redis v4): the TTL lets Redis forget the token when it expires.
 * ```ts
 * const redisStore: TokenStore = {
 *   async get(key) {
 *     const text = await redis.get(`lotline:${key}`);
 *     return text === null ? undefined : (JSON.parse(text) as StoredToken);
 *   },
 *   async set(key, token) {
 *     await redis.set(`lotline:${key}`, JSON.stringify(token), { PXAT: token.expiresAt });
 *   },
 *   async delete(key) {
 *     await redis.del(`lotline:${key}`);
 *   },
 * };
 * const tokens = createTokenProvider({ tokenUrl, clientId, clientSecret, audience, store: redisStore });
 * ```
 *
 * @example A database table `lotline_tokens(key text primary key, access_token text, issued_at bigint, expires_at bigint)`.
 * ```ts
 * const tableStore: TokenStore = {
 *   async get(key) {
 *     const row = await db.oneOrNone("select access_token, expires_at from lotline_tokens where key = $1", [key]);
 *     return row ? { accessToken: row.access_token, issuedAt: Number(row.issued_at), expiresAt: Number(row.expires_at) } : undefined;
 *   },
 *   async set(key, token) {
 *     await db.none(
 *       `insert into lotline_tokens (key, access_token, expires_at) values ($1, $2, $3)
 *        on conflict (key) do update set access_token = $2, expires_at = $3`,
 *       [key, token.accessToken, token.expiresAt],
 *     );
 *   },
 *   async delete(key) {
 *     await db.none("delete from lotline_tokens where key = $1", [key]);
 *   },
 * };
 * ```
 */
export interface TokenStore {
  /** The token stored under `key`, or undefined. An expired entry may be returned; the provider checks. */
  get(key: string): Promise<StoredToken | undefined>;
  /** Stores `token` under `key`, replacing any previous one. */
  set(key: string, token: StoredToken): Promise<void>;
  /** Forgets the token under `key` (after the API refused it). */
  delete(key: string): Promise<void>;
}
