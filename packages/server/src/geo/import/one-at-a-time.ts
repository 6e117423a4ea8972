/**
 * Runs the calls it is given one after another, in the order given, each once the one before has settled. An import
 * thread is handed its next batches while it works on one; on PostgreSQL, whose reads let the thread go on
 * meanwhile, the batches' lookups would run together and meet at every read, each reading again what another is
 * reading and forgetting, to stay within its bound, what another has found kept and has yet to use.
 */
export class OneAtATime {
  #last: Promise<unknown> = Promise.resolve();

  /** `call`'s answer, once every call given before it has settled; a call that fails fails its own caller only. */
  run<T>(call: () => Promise<T>): Promise<T> {
    const answer = this.#last.then(call);
    this.#last = answer.catch(() => undefined);
    return answer;
  }
}
