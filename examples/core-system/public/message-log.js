/**
 * The window messages the open Lotline page posted, as the host accepted them: only from that frame's window
 * and only from Lotline's origin. Everything else is ignored, as a real host must.
 */
export class MessageLog {
  /** @type {Array<Record<string, unknown>>} every accepted message, oldest first (read by automated checks). */
  messages = [];
  #list;

  /** @param {HTMLOListElement} list */
  constructor(list) {
    this.#list = list;
  }

  /**
   * Starts listening.
   * @param {string} lotlineOrigin
   * @param {() => Window | null | undefined} currentFrameWindow the window of the frame open now, if any.
   */
  listen(lotlineOrigin, currentFrameWindow) {
    window.addEventListener("message", (event) => {
      const frameWindow = currentFrameWindow();
      if (!frameWindow || event.source !== frameWindow || event.origin !== lotlineOrigin) return;
      const data = event.data;
      if (typeof data !== "object" || data === null || typeof data.type !== "string") return;
      this.#add({ ...data });
    });
  }

  #add(message) {
    this.messages.push(message);
    const item = document.createElement("li");
    item.dataset.type = message.type;
    const time = document.createElement("time");
    time.textContent = new Date().toLocaleTimeString();
    const type = document.createElement("strong");
    type.textContent = message.type;
    const { type: _type, ...fields } = message;
    const details = document.createElement("code");
    details.textContent = JSON.stringify(fields);
    item.append(time, " ", type, " ", details);
    this.#list.prepend(item);
  }
}
