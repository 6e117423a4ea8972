/** Every worker of a pool is busy and its queue is full: the caller should come back shortly. */
export class PoolBusyError extends Error {
  constructor() {
    super("every worker is busy and the queue is full");
    this.name = "PoolBusyError";
  }
}
