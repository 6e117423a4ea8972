import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createMemoryTokenStore } from "./memory-token-store.js";

describe("createMemoryTokenStore", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date", "performance"] });
    vi.setSystemTime(Date.UTC(2026, 10, 22, 12));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("keeps the time left on the monotonic clock, re-expressed on the wall clock of each read", async () => {
    const store = createMemoryTokenStore();
    const issuedAt = Date.now();
    await store.set("k", { accessToken: "tok", issuedAt, expiresAt: issuedAt + 3_600_000 });
    vi.advanceTimersByTime(600_000);
    vi.setSystemTime(Date.now() - 7 * 86_400_000); // the wall clock is set back a week
    const token = await store.get("k");
    expect(token?.accessToken).toBe("tok");
    expect((token?.expiresAt ?? 0) - Date.now()).toBe(3_000_000);
    expect((token?.expiresAt ?? 0) - (token?.issuedAt ?? 0)).toBe(3_600_000);
  });

  it("forgets a deleted key", async () => {
    const store = createMemoryTokenStore();
    await store.set("k", { accessToken: "tok", issuedAt: 0, expiresAt: 1 });
    await store.delete("k");
    expect(await store.get("k")).toBeUndefined();
  });
});
