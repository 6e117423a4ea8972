/** A webhook delivery the core system accepted. */
export interface ReceivedWebhook {
  /** The `webhook-id`: the same event keeps it across delivery attempts. */
  id: string;
  /** The event type from the body, e.g. `footprint.submitted`. */
  type: string;
  /** When this core system accepted it (ISO 8601). */
  received_at: string;
  /** The verified body: `{type, timestamp, data}`. */
  payload: unknown;
}

/** The last deliveries the core system accepted, newest first, each event once however often it was retried. */
export class WebhookInbox {
  readonly #received: ReceivedWebhook[] = [];

  constructor(readonly capacity = 100) {}

  /** Keeps a verified delivery; a retry of an event already kept changes nothing. */
  add(id: string, payload: unknown, receivedAt = new Date()): void {
    if (this.#received.some((webhook) => webhook.id === id)) return;
    const type = typeof payload === "object" && payload !== null ? (payload as { type?: unknown }).type : undefined;
    this.#received.unshift({
      id,
      type: typeof type === "string" ? type : "unknown",
      received_at: receivedAt.toISOString(),
      payload,
    });
    this.#received.length = Math.min(this.#received.length, this.capacity);
  }

  list(): readonly ReceivedWebhook[] {
    return this.#received;
  }
}
