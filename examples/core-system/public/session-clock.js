/** A token is refreshed this long before it expires. */
export const REFRESH_BEFORE_SECONDS = 120;

/**
 * The open page's session, timed from the `expires_in` its token came with and counted with `performance.now()`,
 * so a wrong or changed clock on this computer cannot shorten or stretch it.
 */
export class SessionClock {
  #deadline = 0;
  #ticker = 0;
  #refreshTimer = 0;
  #onTick;
  #onRefreshDue;

  /**
   * @param {{onTick: (secondsLeft: number) => void, onRefreshDue: () => void}} handlers
   */
  constructor({ onTick, onRefreshDue }) {
    this.#onTick = onTick;
    this.#onRefreshDue = onRefreshDue;
  }

  /** Starts timing a token that lives `expiresIn` seconds from now, and schedules its refresh. */
  start(expiresIn) {
    this.stop();
    this.#deadline = performance.now() + expiresIn * 1000;
    this.#refreshTimer = setTimeout(() => this.#onRefreshDue(), refreshDelaySeconds(expiresIn) * 1000);
    this.#ticker = setInterval(() => this.#tick(), 1000);
    this.#tick();
  }

  stop() {
    clearTimeout(this.#refreshTimer);
    clearInterval(this.#ticker);
  }

  secondsLeft() {
    return Math.max(0, Math.round((this.#deadline - performance.now()) / 1000));
  }

  #tick() {
    const left = this.secondsLeft();
    this.#onTick(left);
    if (left === 0) clearInterval(this.#ticker);
  }
}

/**
 * Two minutes before expiry; a token too short for that is refreshed halfway through its life, so a short
 * lifetime never makes the host refresh in a loop.
 */
export function refreshDelaySeconds(expiresIn) {
  return expiresIn > 2 * REFRESH_BEFORE_SECONDS ? expiresIn - REFRESH_BEFORE_SECONDS : expiresIn / 2;
}

/** `3599` → `59:59`. */
export function formatSeconds(seconds) {
  const minutes = Math.floor(seconds / 60);
  return `${minutes}:${String(seconds % 60).padStart(2, "0")}`;
}
