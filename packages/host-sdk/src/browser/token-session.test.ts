import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeClock } from "./test-clock.js";
import { createTokenSession, type TokenSessionEvent } from "./token-session.js";

const MIN = 60_000;
const margin = 2 * MIN;

afterEach(() => {
  vi.useRealTimers();
});

/** A session whose fetchToken answers tokens of `expiresIn` seconds, numbered token-1, token-2, … */
function setup(expiresIn = 3600, options: { failing?: () => boolean } = {}) {
  const time = fakeClock();
  let issued = 0;
  const fetchToken = vi.fn(async () => {
    if (options.failing?.()) throw new Error("offline");
    issued += 1;
    return { token: `token-${issued}`, expiresIn };
  });
  let wake = () => {};
  const stopWake = vi.fn();
  const session = createTokenSession({
    fetchToken,
    clock: time.clock,
    refreshMarginMs: margin,
    listenForWake: (onWake) => {
      wake = onWake;
      return stopWake;
    },
  });
  const events: TokenSessionEvent[] = [];
  session.subscribe((event) => events.push(event));
  return { ...time, fetchToken, session, events, wake: () => wake(), stopWake };
}

const tokens = (events: TokenSessionEvent[]) => events.filter((event) => event.type === "token");

describe("createTokenSession", () => {
  it("fetches the first token at start and times it from the lifetime the server gave", async () => {
    const { session, fetchToken, advance, events } = setup(3600);
    expect(session.timeLeft()).toBeNull();
    expect(session.token()).toBeUndefined();
    session.start();
    session.start(); // idempotent
    await advance(0);
    expect(fetchToken).toHaveBeenCalledTimes(1);
    expect(events).toEqual([{ type: "token", token: "token-1", expiresIn: 3600, lapsed: false }]);
    expect(session.token()).toBe("token-1");
    expect(session.timeLeft()).toBe(3600_000);
    await advance(1_000);
    expect(session.timeLeft()).toBe(3599_000);
  });

  it("refreshes the margin before expiry, and again for each new token", async () => {
    const { session, fetchToken, advance } = setup(3600);
    session.start();
    await advance(3600_000 - margin - 1);
    expect(fetchToken).toHaveBeenCalledTimes(1);
    await advance(1);
    expect(fetchToken).toHaveBeenCalledTimes(2);
    expect(session.token()).toBe("token-2");
    expect(session.timeLeft()).toBe(3600_000);
    await advance(3600_000 - margin);
    expect(fetchToken).toHaveBeenCalledTimes(3);
  });

  it("refreshes a token too short for the margin halfway through its life", async () => {
    const { session, fetchToken, advance } = setup(180);
    session.start();
    await advance(90_000 - 1);
    expect(fetchToken).toHaveBeenCalledTimes(1);
    await advance(1);
    expect(fetchToken).toHaveBeenCalledTimes(2);
  });

  it("counts the lifetime from when the request started, so a slow answer never makes the deadline late", async () => {
    const time = fakeClock();
    const fetchToken = vi.fn(
      () =>
        new Promise<{ token: string; expiresIn: number }>((resolve) =>
          setTimeout(() => resolve({ token: "t", expiresIn: 60 }), 5_000),
        ),
    );
    const session = createTokenSession({ fetchToken, clock: time.clock });
    session.start();
    await time.advance(5_000);
    expect(session.timeLeft()).toBe(55_000);
    session.stop();
  });

  it("catches up at once on wake after a sleep the timers did not see", async () => {
    const { session, fetchToken, advance, sleep, wake } = setup(3600);
    session.start();
    await advance(0);
    sleep(3590_000);
    await advance(0);
    expect(fetchToken).toHaveBeenCalledTimes(1); // the refresh timer is frozen, as in a suspended tab
    expect(session.timeLeft()).toBe(10_000);
    wake();
    await advance(0);
    expect(fetchToken).toHaveBeenCalledTimes(2);
    expect(session.timeLeft()).toBe(3600_000);
  });

  it("counts sleep the monotonic clock missed, from the wall clock, when the tab wakes", async () => {
    const { session, fetchToken, advance, sleep, wake, events } = setup(3600);
    session.start();
    await advance(0);
    sleep(3500_000, { monotonic: false });
    expect(session.timeLeft()).toBe(3600_000); // performance.now() did not move
    wake();
    await advance(0);
    expect(events.map((event) => event.type)).toEqual(["token", "adjusted", "token"]);
    expect(fetchToken).toHaveBeenCalledTimes(2);
  });

  it("ignores a wall clock set back (never refreshes later than the monotonic clock says)", async () => {
    const { session, fetchToken, advance, wake, setWallClock } = setup(3600);
    session.start();
    await advance(0);
    setWallClock(-600_000);
    wake();
    await advance(3600_000 - margin);
    expect(fetchToken).toHaveBeenCalledTimes(2);
  });

  it("notices a missed refresh from its heartbeat, without any wake signal", async () => {
    const { session, fetchToken, advance, sleep } = setup(3600);
    session.start();
    await advance(0);
    sleep(3590_000);
    await advance(15_000);
    expect(fetchToken).toHaveBeenCalledTimes(2);
  });

  it("marks a token that arrives after the previous one expired as lapsed", async () => {
    const { session, advance, sleep, wake, events } = setup(3600);
    session.start();
    await advance(0);
    sleep(3700_000);
    wake();
    await advance(0);
    expect(tokens(events).map((event) => event.type === "token" && event.lapsed)).toEqual([false, true]);
  });

  it("retries a failed refresh with capped backoff and never gives up, past expiry too", async () => {
    let offline = false;
    const { session, fetchToken, advance, events } = setup(300, { failing: () => offline });
    session.start();
    await advance(0);
    offline = true;
    await advance(180_000); // 2 minutes before a 5-minute token expires
    expect(fetchToken).toHaveBeenCalledTimes(2);
    const waits = [5_000, 10_000, 20_000, 40_000, 60_000, 60_000, 60_000, 60_000];
    for (const [index, wait] of waits.entries()) {
      await advance(wait - 1);
      expect(fetchToken).toHaveBeenCalledTimes(2 + index);
      await advance(1);
      expect(fetchToken).toHaveBeenCalledTimes(3 + index);
    }
    expect(session.timeLeft()).toBe(0);
    expect(session.token()).toBeUndefined();
    const failures = events.filter((event) => event.type === "failed");
    expect(failures.map((event) => event.type === "failed" && event.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    offline = false;
    await advance(60_000);
    expect(session.token()).toBe("token-2");
    expect(tokens(events).at(-1)).toMatchObject({ type: "token", lapsed: true });
    // Success resets the backoff: the next refresh is scheduled from the new token again.
    await advance(180_000);
    expect(session.token()).toBe("token-3");
  });

  it("retries at once when the browser comes back online instead of sitting out the backoff", async () => {
    let offline = false;
    const { session, fetchToken, advance, wake } = setup(3600, { failing: () => offline });
    session.start();
    await advance(0);
    offline = true;
    await advance(3600_000 - margin + 5_000 + 10_000); // the refresh and two retries failed; next wait 20 s
    expect(fetchToken).toHaveBeenCalledTimes(4);
    offline = false;
    wake(); // "online"
    await advance(0);
    expect(fetchToken).toHaveBeenCalledTimes(5);
    expect(session.token()).toBe("token-2");
  });

  it("treats a malformed answer from the host's backend as a failed refresh", async () => {
    const time = fakeClock();
    const fetchToken = vi.fn(async () => ({ token: "t", expires_in: 60 }) as never);
    const session = createTokenSession({ fetchToken, clock: time.clock });
    const events: TokenSessionEvent[] = [];
    session.subscribe((event) => events.push(event));
    session.start();
    await time.advance(0);
    expect(events[0]).toMatchObject({ type: "failed", attempt: 1, error: expect.any(TypeError) });
    session.stop();
  });

  it("shares one fetch between concurrent refresh() calls, and rejects them when it fails", async () => {
    const { session, fetchToken, advance } = setup(3600, { failing: () => fetchToken.mock.calls.length > 1 });
    session.start();
    await advance(0);
    const calls = [session.refresh(), session.refresh(), session.refresh()];
    await expect(Promise.all(calls)).rejects.toThrow("offline");
    expect(fetchToken).toHaveBeenCalledTimes(2);
  });

  it("stops everything on stop(): no timer, no wake listener, and a fetch in flight is ignored", async () => {
    const { session, fetchToken, advance, events, stopWake } = setup(60);
    session.start();
    await advance(0);
    await advance(30_000); // the scheduled refresh (half of 60 s) got token-2
    const before = events.length;
    const pending = session.refresh(); // token-3 is on its way…
    session.stop();
    await pending;
    expect(session.token()).toBe("token-2"); // token-3 landed after stop() and was dropped
    await advance(24 * 3600_000);
    expect(fetchToken).toHaveBeenCalledTimes(3);
    expect(events.length).toBe(before);
    expect(stopWake).toHaveBeenCalledOnce();
    await expect(session.refresh()).rejects.toThrow("stopped");
  });
});
