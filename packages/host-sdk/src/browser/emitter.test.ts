import { afterEach, describe, expect, it, vi } from "vitest";
import { createEmitter } from "./emitter.js";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("createEmitter", () => {
  it("delivers by type, then to onAny, and removes listeners", () => {
    const any = vi.fn();
    const events = createEmitter<{ a: { type: "a"; n: number }; b: { type: "b" } }>(any);
    const a = vi.fn();
    const off = events.on("a", a);
    events.emit("a", { type: "a", n: 1 });
    events.emit("b", { type: "b" });
    off();
    events.emit("a", { type: "a", n: 2 });
    expect(a.mock.calls).toEqual([[{ type: "a", n: 1 }]]);
    expect(any.mock.calls.map(([event]) => event.type)).toEqual(["a", "b", "a"]);
  });

  it("reports a throwing listener and still calls the others", () => {
    const reported = vi.spyOn(console, "error").mockImplementation(() => {});
    const any = vi.fn();
    const events = createEmitter<{ a: { type: "a" } }>(any);
    const after = vi.fn();
    events.on("a", () => {
      throw new Error("host bug");
    });
    events.on("a", after);
    events.emit("a", { type: "a" });
    expect(after).toHaveBeenCalledOnce();
    expect(any).toHaveBeenCalledOnce();
    expect(reported).toHaveBeenCalledWith(expect.objectContaining({ message: "host bug" }));
  });
});
