import { afterEach, describe, expect, it, vi } from "vitest";
import { createCountdown } from "./countdown.js";
import { fakeClock } from "./test-clock.js";

const MIN = 60_000;

afterEach(() => {
  vi.useRealTimers();
});

function setup(lifetimeMs: number | null) {
  const time = fakeClock();
  let deadline = lifetimeMs === null ? null : time.clock.now() + lifetimeMs;
  const fired: string[] = [];
  const countdown = createCountdown({
    clock: time.clock,
    timeLeft: () => (deadline === null ? null : Math.max(0, deadline - time.clock.now())),
    onExpiring: (msLeft, threshold) => fired.push(`expiring ${threshold / 1000}s at ${msLeft / 1000}s`),
    onExpired: () => fired.push("expired"),
  });
  const newToken = (ms: number) => {
    deadline = time.clock.now() + ms;
    countdown.reset();
  };
  return { ...time, countdown, fired, newToken };
}

describe("createCountdown", () => {
  it("fires each default threshold (5 and 1 minutes) once, then expired once", async () => {
    const { countdown, fired, advance } = setup(10 * MIN);
    countdown.update();
    await advance(5 * MIN - 1);
    expect(fired).toEqual([]);
    await advance(1);
    expect(fired).toEqual(["expiring 300s at 300s"]);
    await advance(4 * MIN);
    expect(fired).toEqual(["expiring 300s at 300s", "expiring 60s at 60s"]);
    countdown.update();
    countdown.update();
    await advance(MIN);
    expect(fired).toEqual(["expiring 300s at 300s", "expiring 60s at 60s", "expired"]);
    await advance(60 * MIN);
    countdown.update();
    expect(fired).toHaveLength(3);
  });

  it("fires again for the next token after reset()", async () => {
    const { countdown, fired, advance, newToken } = setup(6 * MIN);
    countdown.update();
    await advance(2 * MIN);
    expect(fired).toEqual(["expiring 300s at 300s"]);
    newToken(6 * MIN);
    await advance(2 * MIN);
    expect(fired).toEqual(["expiring 300s at 300s", "expiring 300s at 300s"]);
  });

  it("fires at once, and only the most urgent, when a token starts (or wakes) below several thresholds", async () => {
    const { countdown, fired, sleep } = setup(10 * MIN);
    countdown.update();
    sleep(9.5 * MIN);
    countdown.update();
    expect(fired).toEqual(["expiring 60s at 30s"]);
  });

  it("says nothing before the first token, and only expired when woken after the end", async () => {
    const quiet = setup(null);
    quiet.countdown.update();
    await quiet.advance(60 * MIN);
    expect(quiet.fired).toEqual([]);
    vi.useRealTimers();
    const late = setup(10 * MIN);
    late.countdown.update();
    late.sleep(11 * MIN);
    late.countdown.update();
    expect(late.fired).toEqual(["expired"]);
  });

  it("stops firing after stop()", async () => {
    const { countdown, fired, advance } = setup(6 * MIN);
    countdown.update();
    countdown.stop();
    await advance(10 * MIN);
    countdown.update();
    expect(fired).toEqual([]);
  });

  it("takes custom thresholds in any order", async () => {
    const time = fakeClock();
    const deadline = time.clock.now() + 3 * MIN;
    const seen: number[] = [];
    const countdown = createCountdown({
      clock: time.clock,
      timeLeft: () => Math.max(0, deadline - time.clock.now()),
      thresholdsMs: [30_000, 2 * MIN],
      onExpiring: (_msLeft, threshold) => seen.push(threshold),
      onExpired: () => seen.push(0),
    });
    countdown.update();
    await time.advance(3 * MIN);
    expect(seen).toEqual([2 * MIN, 30_000, 0]);
  });
});
