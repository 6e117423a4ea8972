import { describe, expect, it } from "vitest";
import { FailureThrottle } from "./failure-throttle.js";

const WINDOW_MS = 60_000;

/** A throttle with a 60-second window over a clock the test moves by hand. */
function throttleWithClock(start = 1_700_000_000_000) {
  const clock = { now: start };
  const throttle = new FailureThrottle(WINDOW_MS, () => clock.now);
  return { clock, throttle };
}

describe("FailureThrottle", () => {
  it("does not block a key with no failures", () => {
    const { throttle } = throttleWithClock();
    expect(throttle.retryAfterSeconds("client:a", 3)).toBe(0);
  });

  it("blocks a key once its failures reach the limit, and not before", () => {
    const { throttle } = throttleWithClock();
    throttle.recordFailure("client:a");
    throttle.recordFailure("client:a");
    expect(throttle.retryAfterSeconds("client:a", 3)).toBe(0);
    throttle.recordFailure("client:a");
    expect(throttle.retryAfterSeconds("client:a", 3)).toBe(60);
  });

  it("counts each key on its own", () => {
    const { throttle } = throttleWithClock();
    for (let i = 0; i < 3; i++) throttle.recordFailure("client:a");
    throttle.recordFailure("client:b");
    expect(throttle.retryAfterSeconds("client:a", 3)).toBeGreaterThan(0);
    expect(throttle.retryAfterSeconds("client:b", 3)).toBe(0);
    expect(throttle.retryAfterSeconds("ip:127.0.0.1", 3)).toBe(0);
  });

  it("answers the seconds left in the window, rounded up, counted from the first failure", () => {
    const { clock, throttle } = throttleWithClock();
    throttle.recordFailure("k");
    clock.now += 20_000;
    throttle.recordFailure("k");
    expect(throttle.retryAfterSeconds("k", 2)).toBe(40);
    clock.now += 10_500;
    expect(throttle.retryAfterSeconds("k", 2)).toBe(30); // 29.5 s left
    clock.now += 29_499;
    expect(throttle.retryAfterSeconds("k", 2)).toBe(1); // 1 ms left: still at least one second
  });

  it("forgets a key's failures when its window ends", () => {
    const { clock, throttle } = throttleWithClock();
    for (let i = 0; i < 3; i++) throttle.recordFailure("k");
    clock.now += WINDOW_MS - 1;
    expect(throttle.retryAfterSeconds("k", 3)).toBe(1);
    clock.now += 1;
    expect(throttle.retryAfterSeconds("k", 3)).toBe(0);
  });

  it("starts a fresh window after the old one ends, so old failures do not add to new ones", () => {
    const { clock, throttle } = throttleWithClock();
    for (let i = 0; i < 2; i++) throttle.recordFailure("k");
    clock.now += WINDOW_MS;
    throttle.recordFailure("k");
    throttle.recordFailure("k");
    expect(throttle.retryAfterSeconds("k", 3)).toBe(0);
    throttle.recordFailure("k");
    expect(throttle.retryAfterSeconds("k", 3)).toBe(60);
  });

  it("never blocks with a limit of 0", () => {
    const { throttle } = throttleWithClock();
    for (let i = 0; i < 1000; i++) throttle.recordFailure("k");
    expect(throttle.retryAfterSeconds("k", 0)).toBe(0);
    expect(throttle.retryAfterSeconds("k", 1000)).toBe(60);
  });

  it("applies whatever limit is asked for against the same count", () => {
    const { throttle } = throttleWithClock();
    for (let i = 0; i < 5; i++) throttle.recordFailure("k");
    expect(throttle.retryAfterSeconds("k", 5)).toBe(60);
    expect(throttle.retryAfterSeconds("k", 6)).toBe(0);
  });

  it("uses the real clock by default", () => {
    const throttle = new FailureThrottle(WINDOW_MS);
    throttle.recordFailure("k");
    const seconds = throttle.retryAfterSeconds("k", 1);
    expect(seconds).toBeGreaterThanOrEqual(59);
    expect(seconds).toBeLessThanOrEqual(60);
  });

  it("stays bounded under a flood of keys by dropping the oldest windows, keeping the newest", () => {
    const { throttle } = throttleWithClock();
    throttle.recordFailure("oldest");
    for (let i = 0; i < 100_000; i++) throttle.recordFailure(`flood:${i}`);
    throttle.recordFailure("newest");
    expect(throttle.retryAfterSeconds("oldest", 1)).toBe(0);
    expect(throttle.retryAfterSeconds("newest", 1)).toBe(60);
  });
});
