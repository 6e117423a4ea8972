import { describe, expect, it } from "vitest";
import type { ServiceMessage } from "./generated/messages.js";
import { listenForServiceMessages } from "./listen-for-service-messages.js";

const ORIGIN = "https://lotline.example";

function setup() {
  const listeners = new Set<(event: MessageEvent) => void>();
  const target = {
    addEventListener: (_type: "message", listener: (event: MessageEvent) => void) => listeners.add(listener),
    removeEventListener: (_type: "message", listener: (event: MessageEvent) => void) => listeners.delete(listener),
  };
  const frameWindow = { name: "our frame" } as unknown as MessageEventSource;
  const otherFrame = { name: "another frame" } as unknown as MessageEventSource;
  const received: ServiceMessage[] = [];
  const stop = listenForServiceMessages({
    target,
    frameWindow: () => frameWindow,
    origin: ORIGIN,
    onMessage: (message) => received.push(message),
  });
  const post = (data: unknown, { source = frameWindow, origin = ORIGIN } = {}) => {
    for (const listener of listeners) listener({ data, source, origin } as MessageEvent);
  };
  return { listeners, received, stop, post, otherFrame };
}

const complete = { type: "service-order-complete", property_id: 42 };

describe("listenForServiceMessages", () => {
  it("passes on a well-formed message from its frame at Lotline's origin", () => {
    const { received, post } = setup();
    post(complete);
    post({ type: "service-error", message: "No parcel here." });
    expect(received).toEqual([complete, { type: "service-error", message: "No parcel here." }]);
  });

  it("drops a message from another frame, even one at Lotline's origin", () => {
    const { received, post, otherFrame } = setup();
    post(complete, { source: otherFrame });
    expect(received).toEqual([]);
  });

  it("drops a message from the right frame at another origin (the frame navigated away)", () => {
    const { received, post } = setup();
    post(complete, { origin: "https://evil.example" });
    post(complete, { origin: "https://lotline.example:8443" });
    expect(received).toEqual([]);
  });

  it("drops malformed messages and unknown types", () => {
    const { received, post } = setup();
    for (const data of [
      null,
      "service-order-complete",
      { type: "service-order-complete" },
      { type: "service-order-complete", property_id: "42" },
      { type: "service-error" },
      { type: "service-footprint-submitted", address: 7 },
      { type: "service-something-new", property_id: 1 },
      { type: "host-session-token", token: "x" },
    ]) {
      post(data);
    }
    expect(received).toEqual([]);
  });

  it("stops listening when told", () => {
    const { listeners, stop } = setup();
    expect(listeners.size).toBe(1);
    stop();
    expect(listeners.size).toBe(0);
  });
});
