import { afterEach, describe, expect, it, vi } from "vitest";
import type { MountEvent } from "./events.js";
import { mount } from "./mount.js";
import { fakeClock } from "./test-clock.js";
import { type FakeElement, fakeDom } from "./test-dom.js";

const LOTLINE = "https://lotline.example";
const MIN = 60_000;

afterEach(() => {
  vi.useRealTimers();
});

function setup({ expiresIn = 3600, notice = false } = {}) {
  const time = fakeClock();
  const dom = fakeDom();
  let offline = false;
  let issued = 0;
  const fetchToken = vi.fn(async () => {
    if (offline) throw new Error("offline");
    issued += 1;
    return { token: `token-${issued}`, expiresIn };
  });
  const events: MountEvent[] = [];
  const open = (page: "new-order" | "property-profile" = "new-order") =>
    page === "new-order"
      ? mount({
          container: dom.container,
          page,
          params: { address: "1 Main St", external_id: "POL-1" },
          fetchToken,
          lotlineUrl: `${LOTLINE}/`,
          clock: time.clock,
          notice,
          onEvent: (event) => events.push(event),
        })
      : mount({
          container: dom.container,
          page,
          params: { property_id: 42 },
          fetchToken,
          lotlineUrl: LOTLINE,
          clock: time.clock,
        });
  const frame = (handle: { iframe: HTMLIFrameElement }) => handle.iframe as unknown as FakeElement;
  const jwtOf = (handle: { iframe: HTMLIFrameElement }) => new URL(frame(handle).src).searchParams.get("jwt");
  const setOffline = (value: boolean) => {
    offline = value;
  };
  return { ...time, ...dom, fetchToken, events, open, frame, jwtOf, setOffline };
}

const types = (events: MountEvent[]) => events.map((event) => event.type);

describe("mount", () => {
  it("creates an accessible, locked-down frame and loads the page once the first token arrives", async () => {
    const { open, frame, fakeContainer, advance, events } = setup();
    const handle = open();
    const iframe = frame(handle);
    expect(fakeContainer.children).toEqual([iframe]);
    expect(iframe.src).toBe("");
    expect(handle.timeLeft()).toBeNull();
    expect(iframe).toMatchObject({
      title: "Lotline: new order",
      referrerPolicy: "origin",
      style: { width: "100%", height: "720px" },
    });
    expect(iframe.attributes.get("allow")).toBe("");
    await advance(0);
    expect(iframe.src).toBe(`${LOTLINE}/property-profile/new-order?jwt=token-1&address=1+Main+St&external_id=POL-1`);
    expect(events).toEqual([{ type: "session-refreshed", expiresIn: 3600 }]);
    expect(handle.timeLeft()).toBe(3600_000);
    handle.destroy();
  });

  it("refuses a bad property id at once, in the host's call", () => {
    const { container, fetchToken } = setup();
    expect(() =>
      mount({ container, page: "property-profile", params: { property_id: "x" }, fetchToken, lotlineUrl: LOTLINE }),
    ).toThrow(TypeError);
    expect(fetchToken).not.toHaveBeenCalled();
  });

  it("hands a refreshed token to the open page by message, to Lotline's origin only, without reloading", async () => {
    const { open, frame, advance, events } = setup();
    const handle = open();
    await advance(0);
    const firstSrc = frame(handle).src;
    await advance(3600_000 - 6 * MIN); // default margin: a minute before the 5-minute warning
    expect(frame(handle).src).toBe(firstSrc);
    expect(frame(handle).contentWindow?.postMessage).toHaveBeenCalledWith(
      { type: "host-session-token", token: "token-2" },
      LOTLINE,
    );
    expect(types(events)).toEqual(["session-refreshed", "session-refreshed"]); // no warning on a healthy session
    handle.destroy();
  });

  it("reloads the frame with the new token when the page already ended (service-error after expiry)", async () => {
    const { open, frame, advance, setOffline, window, jwtOf, events } = setup({ expiresIn: 600 });
    const handle = open();
    await advance(0);
    setOffline(true);
    await advance(600_000);
    expect(handle.timeLeft()).toBe(0);
    window.dispatch("message", {
      data: { type: "service-error", message: "The session has ended." },
      source: frame(handle).contentWindow,
      origin: LOTLINE,
    });
    setOffline(false);
    await handle.refresh();
    expect(jwtOf(handle)).toBe("token-2");
    expect(frame(handle).contentWindow?.postMessage).not.toHaveBeenCalled();
    expect(types(events)).toContain("session-expired");
    expect(types(events).at(-2)).toBe("service-error");
    expect(types(events).at(-1)).toBe("session-refreshed");
    handle.destroy();
  });

  it("reloads the frame with a fresh token when the page reports its session ended while the token looked valid", async () => {
    const { open, frame, advance, window, jwtOf, events, fetchToken } = setup();
    const handle = open();
    await advance(0);
    expect(handle.timeLeft()).toBe(3600_000);
    const sessionEnded: string[] = [];
    handle.on("service-session-ended", (message) => sessionEnded.push(message.reason));
    const source = frame(handle).contentWindow;
    // Forged: another window, or another origin. Neither may make the host fetch a token.
    window.dispatch("message", {
      data: { type: "service-session-ended", reason: "expired" },
      source: {},
      origin: LOTLINE,
    });
    window.dispatch("message", {
      data: { type: "service-session-ended", reason: "expired" },
      source,
      origin: "https://x.example",
    });
    await advance(0);
    expect(fetchToken).toHaveBeenCalledTimes(1);

    window.dispatch("message", { data: { type: "service-session-ended", reason: "expired" }, source, origin: LOTLINE });
    await advance(0);
    expect(sessionEnded).toEqual(["expired"]);
    expect(fetchToken).toHaveBeenCalledTimes(2);
    expect(jwtOf(handle)).toBe("token-2"); // reloaded, not handed over: the page is at /login
    expect(frame(handle).contentWindow?.postMessage).not.toHaveBeenCalled();
    expect(types(events).slice(-2)).toEqual(["service-session-ended", "session-refreshed"]);

    // The next refresh finds the page open again: handed over by message.
    await advance(3600_000 - 6 * MIN);
    expect(frame(handle).contentWindow?.postMessage).toHaveBeenCalledWith(
      { type: "host-session-token", token: "token-3" },
      LOTLINE,
    );
    expect(jwtOf(handle)).toBe("token-2");
    handle.destroy();
  });

  it("backs off when the page keeps reporting its session ended, and starts afresh after a quiet spell", async () => {
    const { open, frame, advance, window, fetchToken } = setup();
    const handle = open();
    await advance(0);
    const ended = () =>
      window.dispatch("message", {
        data: { type: "service-session-ended", reason: "invalid" },
        source: frame(handle).contentWindow,
        origin: LOTLINE,
      });
    ended();
    await advance(0);
    expect(fetchToken).toHaveBeenCalledTimes(2);
    ended();
    ended(); // while a reload is pending, further reports change nothing
    await advance(4_999);
    expect(fetchToken).toHaveBeenCalledTimes(2);
    await advance(1);
    expect(fetchToken).toHaveBeenCalledTimes(3);
    ended();
    await advance(9_999);
    expect(fetchToken).toHaveBeenCalledTimes(3);
    await advance(1);
    expect(fetchToken).toHaveBeenCalledTimes(4);
    await advance(3 * MIN);
    ended();
    await advance(0);
    expect(fetchToken).toHaveBeenCalledTimes(5);
    ended();
    handle.destroy(); // a pending reload is cancelled
    await advance(MIN);
    expect(fetchToken).toHaveBeenCalledTimes(5);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("reloads the frame when the token had expired before the refresh landed (woken after sleep)", async () => {
    const { open, advance, sleep, document, jwtOf, frame } = setup();
    const handle = open();
    await advance(0);
    sleep(2 * 3600_000);
    document.dispatch("visibilitychange");
    await advance(0);
    expect(jwtOf(handle)).toBe("token-2");
    expect(frame(handle).contentWindow?.postMessage).not.toHaveBeenCalled();
    handle.destroy();
  });

  it("shares one token and one refresh between frames mounted with the same fetchToken", async () => {
    const { open, advance, fetchToken, jwtOf, frame } = setup();
    const first = open();
    const second = open("property-profile");
    await advance(0);
    expect(fetchToken).toHaveBeenCalledTimes(1);
    expect(jwtOf(first)).toBe("token-1");
    expect(jwtOf(second)).toBe("token-1");
    const third = open(); // mounted later: starts with the token the others have
    expect(jwtOf(third)).toBe("token-1");
    await advance(3600_000 - 6 * MIN);
    expect(fetchToken).toHaveBeenCalledTimes(2);
    for (const handle of [first, second, third]) {
      expect(frame(handle).contentWindow?.postMessage).toHaveBeenCalledWith(
        { type: "host-session-token", token: "token-2" },
        LOTLINE,
      );
    }
    first.destroy();
    second.destroy();
    await advance(3600_000 - 6 * MIN);
    expect(fetchToken).toHaveBeenCalledTimes(3); // the last frame keeps the session going
    third.destroy();
  });

  it("retries at once for a frame mounted while the shared session is failing", async () => {
    const { open, advance, setOffline, fetchToken, jwtOf } = setup({ expiresIn: 600 });
    const first = open();
    await advance(0);
    setOffline(true);
    await advance(600_000 + 5_000); // expired; the retries wait longer and longer
    const calls = fetchToken.mock.calls.length;
    setOffline(false);
    const second = open();
    await advance(0);
    expect(fetchToken).toHaveBeenCalledTimes(calls + 1);
    expect(jwtOf(second)).toBe("token-2");
    expect(jwtOf(first)).toBe("token-2"); // reloaded: its token had lapsed
    first.destroy();
    second.destroy();
  });

  it("emits typed window messages from its own frame and ignores forged ones", async () => {
    const { open, frame, advance, window, events } = setup();
    const handle = open();
    await advance(0);
    const completed: number[] = [];
    handle.on("service-order-complete", (message) => completed.push(message.property_id));
    const source = frame(handle).contentWindow;
    window.dispatch("message", { data: { type: "service-order-complete", property_id: 7 }, source, origin: LOTLINE });
    window.dispatch("message", {
      data: { type: "service-order-complete", property_id: 8 },
      source: {},
      origin: LOTLINE,
    });
    window.dispatch("message", {
      data: { type: "service-order-complete", property_id: 9 },
      source,
      origin: "https://x.example",
    });
    window.dispatch("message", { data: { type: "service-unknown" }, source, origin: LOTLINE });
    expect(completed).toEqual([7]);
    expect(events.at(-1)).toEqual({ type: "service-order-complete", property_id: 7 });
    handle.destroy();
  });

  it("warns at the thresholds while refreshes fail, with a notice that hides again after a refresh", async () => {
    const { open, advance, setOffline, fakeContainer, events } = setup({ notice: true });
    const handle = open();
    const [notice, iframe] = fakeContainer.children;
    expect(iframe).toBe(handle.iframe);
    expect(notice?.attributes.get("role")).toBe("status");
    expect(notice?.hidden).toBe(true);
    await advance(0);
    setOffline(true);
    await advance(3600_000 - 5 * MIN);
    expect(events.filter((event) => event.type === "session-expiring")).toEqual([
      { type: "session-expiring", msLeft: 5 * MIN, threshold: 5 * MIN },
    ]);
    expect(events.filter((event) => event.type === "refresh-failed").length).toBeGreaterThan(1);
    expect(notice).toMatchObject({ hidden: false, textContent: "Your session ends in 5 minutes." });
    await advance(4 * MIN + 1_000);
    expect(notice?.textContent).toBe("Your session ends in less than a minute.");
    expect(types(events).filter((type) => type === "session-expiring")).toHaveLength(2);
    setOffline(false);
    await advance(60_000);
    expect(notice?.hidden).toBe(true);
    expect(types(events).at(-1)).toBe("session-refreshed");
    handle.destroy();
  });

  it("destroy() removes the frame and notice, every listener and every timer", async () => {
    const { open, advance, fakeContainer, window, document, fetchToken, events } = setup({ notice: true });
    const handle = open();
    await advance(0);
    handle.destroy();
    handle.destroy();
    expect(fakeContainer.children).toEqual([]);
    expect(window.listenerCount()).toBe(0);
    expect(document.listenerCount()).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
    const before = events.length;
    await advance(24 * 3600_000);
    expect(fetchToken).toHaveBeenCalledTimes(1);
    expect(events.length).toBe(before);
  });
});
