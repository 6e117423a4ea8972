import { ApiNetworkError } from "../errors/api-network-error.js";

/**
 * The chunks of an answer's body as they arrive, each within `idleMs` of asking for it: a body that stalls throws
 * {@link ApiNetworkError} `api_timeout`, one cut off throws `api_unreachable` (never a silently short body). The
 * time the caller spends between chunks does not count. Stopping early (`break`, `return`, a throw) cancels the
 * body, which closes the connection.
 */
export async function* streamChunks(
  body: ReadableStream<Uint8Array>,
  idleMs: number,
  what: string,
): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await within(reader.read(), idleMs, what).catch((cause: unknown) => {
        if (cause instanceof ApiNetworkError) throw cause;
        throw new ApiNetworkError("api_unreachable", `${what} broke off`, { cause });
      });
      if (done) {
        finished = true;
        return;
      }
      yield value;
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
  }
}

/** `read`, or an `api_timeout` once `ms` passed without it settling. */
async function within<T>(read: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ApiNetworkError("api_timeout", `${what} sent nothing for ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([read, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
