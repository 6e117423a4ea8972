import type { NormalizedAddress } from "../address/index.js";

/** What stands for the town in the key of "this street, number and unit, in any town": no town's name has a NUL. */
export const ANY_TOWN = "\u0000";

/**
 * Two 32-bit hashes of a key, built in place as its parts are mixed in: of an address's place, or of a source id.
 * An import hashes every address it reads, some twice, and strings built for the keys cost more than the lookups
 * they serve.
 */
export class PlaceHash {
  a = 0;
  b = 0;

  /** Starts the hashes of a key with no part yet. */
  start(): this {
    this.a = 0x811c9dc5;
    this.b = 0x5bd1e995;
    return this;
  }

  /**
   * Starts the hashes of an address's place: its street (the words `streetKey` joins), house number and unit, all
   * of which a stored row must share to be the same address (`same-address.ts`). Without the unit, each unit of a
   * building of a hundred found the rows of all the others written before it.
   */
  startPlace(address: NormalizedAddress): this {
    this.start();
    this.mix(address.predir ?? "");
    this.mix(address.street);
    this.mix(address.suffix ?? "");
    this.mix(address.postdir ?? "");
    this.mix(address.number ?? "");
    return this.mix(address.unit ?? address.unitType ?? "");
  }

  /** Mixes a part of the key into both hashes (FNV-1a with two primes), ending it with a separator. */
  mix(text: string): this {
    let a = this.a;
    let b = this.b;
    for (let i = 0; i <= text.length; i++) {
      // The separator after the part: "AB" then "C" is not "A" then "BC".
      const code = i < text.length ? text.charCodeAt(i) : 0x1f;
      a = Math.imul(a ^ code, 0x01000193);
      b = Math.imul(b ^ code, 0x5bd1e995);
      b ^= b >>> 15;
    }
    this.a = a;
    this.b = b;
    return this;
  }

  /** Sets both hashes to another's: a place's hashes kept before a town is mixed in. */
  copy(other: PlaceHash): this {
    this.a = other.a;
    this.b = other.b;
    return this;
  }
}
