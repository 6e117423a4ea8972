import { describe, expect, it, vi } from "vitest";
import { listenForWake, type WakeSources } from "./listen-for-wake.js";
import { fakeDom } from "./test-dom.js";

describe("listenForWake", () => {
  it("wakes on the tab becoming visible (not hidden), on online and on pageshow; stops cleanly", () => {
    const { window, document } = fakeDom();
    const onWake = vi.fn();
    const stop = listenForWake({ window, document } as unknown as WakeSources, onWake);
    document.visibilityState = "hidden";
    document.dispatch("visibilitychange");
    expect(onWake).not.toHaveBeenCalled();
    document.visibilityState = "visible";
    document.dispatch("visibilitychange");
    window.dispatch("online");
    window.dispatch("pageshow");
    expect(onWake).toHaveBeenCalledTimes(3);
    stop();
    expect(window.listenerCount() + document.listenerCount()).toBe(0);
  });
});
