import { vi } from "vitest";

type Listener = (event: never) => void;

/** Just enough of an event target for the SDK: add, remove, and a way for the test to dispatch. */
class FakeTarget {
  readonly listeners = new Map<string, Set<Listener>>();
  addEventListener(type: string, listener: Listener) {
    if (!this.listeners.has(type)) this.listeners.set(type, new Set());
    this.listeners.get(type)?.add(listener);
  }
  removeEventListener(type: string, listener: Listener) {
    this.listeners.get(type)?.delete(listener);
  }
  dispatch(type: string, event: object = {}) {
    for (const listener of [...(this.listeners.get(type) ?? [])]) (listener as (event: object) => void)(event);
  }
  listenerCount() {
    return [...this.listeners.values()].reduce((sum, set) => sum + set.size, 0);
  }
}

/** An element with the properties mount() sets; an iframe also gets a contentWindow with a spied postMessage. */
export class FakeElement {
  readonly attributes = new Map<string, string>();
  readonly style: Record<string, string> = {};
  hidden = false;
  textContent: string | null = null;
  className = "";
  title = "";
  referrerPolicy = "";
  src = "";
  parent: FakeContainer | undefined;
  readonly contentWindow: { postMessage: ReturnType<typeof vi.fn> } | null;
  constructor(readonly tagName: string) {
    this.contentWindow = tagName === "iframe" ? { postMessage: vi.fn() } : null;
  }
  setAttribute(name: string, value: string) {
    this.attributes.set(name, value);
  }
  remove() {
    if (!this.parent) return;
    this.parent.children.splice(this.parent.children.indexOf(this), 1);
    this.parent = undefined;
  }
}

export class FakeContainer {
  readonly children: FakeElement[] = [];
  constructor(readonly ownerDocument: FakeDocument) {}
  append(...elements: FakeElement[]) {
    for (const element of elements) {
      element.parent = this;
      this.children.push(element);
    }
  }
}

export class FakeDocument extends FakeTarget {
  visibilityState: "visible" | "hidden" = "visible";
  constructor(readonly defaultView: FakeTarget) {
    super();
  }
  createElement(tagName: string) {
    return new FakeElement(tagName);
  }
}

/** A window, its document and a container element in it; `container` is typed for mount(). */
export function fakeDom() {
  const window = new FakeTarget();
  const document = new FakeDocument(window);
  const fakeContainer = new FakeContainer(document);
  return { window, document, fakeContainer, container: fakeContainer as unknown as HTMLElement };
}
