/**
 * What a pure reading of text gave for the texts met lately, so that text met again is not read again: a file's
 * addresses repeat their town and state on line after line. Kept up to `most` texts and then forgotten all at once,
 * which costs less than tracking the least recent for readings this cheap. A reading kept is frozen: every caller
 * gets the same object.
 */
export class RecentReadings<T extends object> {
  readonly #readings = new Map<string, Readonly<T>>();
  readonly #most: number;

  constructor(most: number) {
    this.#most = most;
  }

  /** What `read` gives for the text keyed `key`, read now only if it was not met lately. */
  get(key: string, read: () => T): Readonly<T> {
    let reading = this.#readings.get(key);
    if (reading === undefined) {
      if (this.#readings.size >= this.#most) this.#readings.clear();
      reading = Object.freeze(read());
      this.#readings.set(key, reading);
    }
    return reading;
  }
}
