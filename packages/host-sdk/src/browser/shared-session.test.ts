import { describe, expect, it, vi } from "vitest";
import type { FetchToken } from "./fetch-token.js";
import { acquireSession } from "./shared-session.js";
import type { TokenSession } from "./token-session.js";

const fakeSession = () => ({ stop: vi.fn() }) as unknown as TokenSession & { stop: ReturnType<typeof vi.fn> };

describe("acquireSession", () => {
  it("creates one session per fetchToken, shares it, and stops it when the last user releases it", () => {
    const fetchToken: FetchToken = async () => ({ token: "t", expiresIn: 60 });
    const created = fakeSession();
    const create = vi.fn(() => created);
    const a = acquireSession(fetchToken, create);
    const b = acquireSession(fetchToken, create);
    expect(create).toHaveBeenCalledOnce();
    expect(b.session).toBe(a.session);
    a.release();
    a.release(); // a second release by the same user counts once
    expect(created.stop).not.toHaveBeenCalled();
    b.release();
    expect(created.stop).toHaveBeenCalledOnce();
    const next = fakeSession();
    expect(acquireSession(fetchToken, () => next).session).toBe(next);
  });

  it("keeps sessions of different fetchToken functions apart", () => {
    const one = acquireSession(async () => ({ token: "a", expiresIn: 60 }), fakeSession);
    const two = acquireSession(async () => ({ token: "b", expiresIn: 60 }), fakeSession);
    expect(one.session).not.toBe(two.session);
  });
});
