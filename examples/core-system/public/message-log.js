/**
 * What the host heard from the mounted Lotline page, newest first on screen: the page's window messages and the
 * SDK's session events. The SDK has already checked each window message (from this frame's window, from Lotline's
 * origin, with exactly the fields of its type), so the log only shows them.
 */
export class MessageLog {
  /** @type {Array<Record<string, unknown>>} the page's window messages, oldest first (read by automated checks). */
  messages = [];
  /** @type {Array<Record<string, unknown>>} the SDK's session events, oldest first (read by automated checks). */
  sessionEvents = [];
  #list;

  /** @param {HTMLOListElement} list */
  constructor(list) {
    this.#list = list;
  }

  /** A window message from the page, e.g. `{ type: "service-order-complete", property_id: 42 }`. */
  addMessage(message) {
    this.messages.push({ ...message });
    this.#show(message, "message");
  }

  /** A session event of the SDK, e.g. `{ type: "session-refreshed", expiresIn: 3600 }`. */
  addSessionEvent(event) {
    const shown =
      event.type === "refresh-failed" ? { ...event, error: String(event.error?.message ?? event.error) } : event;
    this.sessionEvents.push({ ...shown });
    this.#show(shown, "session");
  }

  #show(entry, kind) {
    const item = document.createElement("li");
    item.dataset.type = entry.type;
    item.dataset.kind = kind;
    const time = document.createElement("time");
    time.textContent = new Date().toLocaleTimeString();
    const type = document.createElement("strong");
    type.textContent = entry.type;
    const { type: _type, ...fields } = entry;
    const details = document.createElement("code");
    details.textContent = JSON.stringify(fields);
    item.append(time, " ", type, " ", details);
    this.#list.prepend(item);
  }
}
