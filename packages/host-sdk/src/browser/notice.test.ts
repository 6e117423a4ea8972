import { afterEach, describe, expect, it, vi } from "vitest";
import { createNotice } from "./notice.js";
import { noticeText } from "./notice-text.js";
import { fakeClock } from "./test-clock.js";

afterEach(() => {
  vi.useRealTimers();
});

describe("noticeText", () => {
  it("speaks in whole minutes, then 'less than a minute', then the end", () => {
    expect(noticeText(300_000)).toBe("Your session ends in 5 minutes.");
    expect(noticeText(240_001)).toBe("Your session ends in 5 minutes.");
    expect(noticeText(61_000)).toBe("Your session ends in 2 minutes.");
    expect(noticeText(60_000)).toBe("Your session ends in 1 minute.");
    expect(noticeText(59_999)).toBe("Your session ends in less than a minute.");
    expect(noticeText(0)).toBe("Your session has ended. Reconnecting…");
  });
});

describe("createNotice", () => {
  it("starts hidden, shows and re-reads every second once shown, hides after a refresh", async () => {
    const time = fakeClock();
    const deadline = time.clock.now() + 5 * 60_000;
    const element = { hidden: false, textContent: "" as string | null };
    const texts: string[] = [];
    const notice = createNotice({
      element,
      clock: time.clock,
      timeLeft: () => Math.max(0, deadline - time.clock.now()),
      text: (msLeft) => {
        texts.push(String(msLeft));
        return `${Math.ceil(msLeft / 1000)}s`;
      },
    });
    expect(element.hidden).toBe(true);
    notice.show();
    expect(element).toEqual({ hidden: false, textContent: "300s" });
    await time.advance(3_000);
    expect(element.textContent).toBe("297s");
    expect(texts).toHaveLength(4);
    notice.hide();
    expect(element.hidden).toBe(true);
    await time.advance(10_000);
    expect(texts).toHaveLength(4);
  });

  it("stops ticking at the end and shows the ended sentence", async () => {
    const time = fakeClock();
    const deadline = time.clock.now() + 2_000;
    const element = { hidden: true, textContent: null as string | null };
    const notice = createNotice({
      element,
      clock: time.clock,
      timeLeft: () => Math.max(0, deadline - time.clock.now()),
    });
    notice.show();
    expect(element.textContent).toBe("Your session ends in less than a minute.");
    await time.advance(2_000);
    expect(element.textContent).toBe("Your session has ended. Reconnecting…");
    expect(vi.getTimerCount()).toBe(0);
    notice.stop();
  });
});
