/**
 * The interface's fixed sizes and lifetimes.
 *
 * Plain TypeScript with no runtime dependency, so that the service's configuration and command line
 * (`@lotline/contract/limits`) do not load the schema library to read a number.
 */

/** The bearer token's lifetime: INTERFACE.md §8. */
export const ACCESS_TOKEN_TTL_SECONDS = 86_400;

/**
 * How deeply a request's JSON may nest (objects and arrays within each other); deeper is refused before anything
 * else reads it. The deepest body the API takes, an order's parcel boundary, nests 5 deep.
 */
export const MAX_JSON_DEPTH = 32;

/** The most rows one batch may carry; a bigger book is sent as several batches. */
export const ORDER_BATCH_ROWS_MAX = 100_000;

/** How many rejections the answer to `POST /v1/order-batches` lists; the results list every one. */
export const ORDER_BATCH_REJECTIONS_SHOWN = 100;
