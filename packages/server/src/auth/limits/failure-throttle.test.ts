import { describe, expect, it } from "vitest";
import { FailureThrottle } from "./failure-throttle.js";

const MAX_DELAY_MS = 60_000;

/** A throttle backing off to at most 60 s, over a clock the test moves by hand. */
function throttleWithClock(start = 1_700_000_000_000) {
  const clock = { now: start };
  const throttle = new FailureThrottle(MAX_DELAY_MS, () => clock.now);
  return { clock, throttle };
}

/** Records `count` failures of `key`. */
function fail(throttle: FailureThrottle, key: string, count: number): void {
  for (let i = 0; i < count; i++) throttle.recordFailure(key);
}

describe("FailureThrottle", () => {
  it("does not refuse a key with no failures", () => {
    const { throttle } = throttleWithClock();
    expect(throttle.retryAfterSeconds("client:a", 3)).toBe(0);
  });

  it("refuses a key for one second once its failures reach the limit, and not before", () => {
    const { throttle } = throttleWithClock();
    fail(throttle, "k", 2);
    expect(throttle.retryAfterSeconds("k", 3)).toBe(0);
    throttle.recordFailure("k");
    expect(throttle.retryAfterSeconds("k", 3)).toBe(1);
  });

  it("doubles the refusal with each further failure, counted from the last one, up to the cap", () => {
    const { clock, throttle } = throttleWithClock();
    fail(throttle, "k", 3);
    const refusals: number[] = [];
    for (let i = 0; i < 9; i++) {
      const seconds = throttle.retryAfterSeconds("k", 3);
      refusals.push(seconds);
      clock.now += seconds * 1000;
      expect(throttle.retryAfterSeconds("k", 3)).toBe(0);
      throttle.recordFailure("k");
    }
    expect(refusals).toEqual([1, 2, 4, 8, 16, 32, 60, 60, 60]);
  });

  it("answers the seconds left, rounded up", () => {
    const { clock, throttle } = throttleWithClock();
    fail(throttle, "k", 5); // 2 past the limit of 3: 4 s
    clock.now += 1500;
    expect(throttle.retryAfterSeconds("k", 3)).toBe(3);
    clock.now += 2499;
    expect(throttle.retryAfterSeconds("k", 3)).toBe(1); // 1 ms left: still a second
    clock.now += 1;
    expect(throttle.retryAfterSeconds("k", 3)).toBe(0);
  });

  it("counts each key on its own", () => {
    const { throttle } = throttleWithClock();
    fail(throttle, "client:a", 3);
    throttle.recordFailure("client:b");
    expect(throttle.retryAfterSeconds("client:a", 3)).toBe(1);
    expect(throttle.retryAfterSeconds("client:b", 3)).toBe(0);
  });

  it("forgets a key's failures after a success", () => {
    const { throttle } = throttleWithClock();
    fail(throttle, "k", 10);
    throttle.recordSuccess("k");
    expect(throttle.retryAfterSeconds("k", 3)).toBe(0);
    fail(throttle, "k", 2);
    expect(throttle.retryAfterSeconds("k", 3)).toBe(0);
  });

  it("forgets a key's failures after 15 quiet minutes, so old failures do not add to new ones", () => {
    const { clock, throttle } = throttleWithClock();
    fail(throttle, "k", 10);
    clock.now += 15 * 60_000;
    fail(throttle, "k", 2);
    expect(throttle.retryAfterSeconds("k", 3)).toBe(0);
    throttle.recordFailure("k");
    expect(throttle.retryAfterSeconds("k", 3)).toBe(1);
  });

  it("remembers failures longer than its longest refusal, so no refusal is cut short", () => {
    const clock = { now: 0 };
    const throttle = new FailureThrottle(3600_000, () => clock.now);
    fail(throttle, "k", 20);
    clock.now += 3600_000 - 1000;
    expect(throttle.retryAfterSeconds("k", 3)).toBe(1);
  });

  it("never refuses with a limit of 0", () => {
    const { throttle } = throttleWithClock();
    fail(throttle, "k", 1000);
    expect(throttle.retryAfterSeconds("k", 0)).toBe(0);
    expect(throttle.retryAfterSeconds("k", 1000)).toBe(1);
  });

  it("uses the real clock by default", () => {
    const throttle = new FailureThrottle(MAX_DELAY_MS);
    fail(throttle, "k", 3);
    expect(throttle.retryAfterSeconds("k", 1)).toBe(4);
  });

  it("stays bounded under a flood of keys by dropping those that failed least recently", () => {
    const { throttle } = throttleWithClock();
    throttle.recordFailure("oldest");
    throttle.recordFailure("busy");
    for (let i = 0; i < 100_000; i++) {
      throttle.recordFailure(`flood:${i}`);
      // A key that keeps failing stays at the back of the queue, so the flood cannot wash it out.
      if (i % 10_000 === 0) throttle.recordFailure("busy");
    }
    throttle.recordFailure("newest");
    expect(throttle.retryAfterSeconds("oldest", 1)).toBe(0);
    expect(throttle.retryAfterSeconds("busy", 1)).toBeGreaterThan(0);
    expect(throttle.retryAfterSeconds("newest", 1)).toBe(1);
  });

  it("cuts keys to 200 characters, so a huge id costs no more than a short one", () => {
    const { throttle } = throttleWithClock();
    const huge = `client:${"x".repeat(1_000_000)}`;
    throttle.recordFailure(huge);
    expect(throttle.retryAfterSeconds(huge.slice(0, 200), 1)).toBe(1);
  });
});
