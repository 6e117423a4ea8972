import { listReceivedWebhooks } from "./core-api.js";

const POLL_MS = 2000;

/**
 * Shows the webhooks this core system's server verified and kept, newest first, polling every two seconds.
 * @param {HTMLOListElement} list
 */
export function showReceivedWebhooks(list) {
  let shown = "";
  const refresh = async () => {
    try {
      const webhooks = await listReceivedWebhooks();
      const key = webhooks.map((webhook) => webhook.id).join(",");
      if (key !== shown) {
        shown = key;
        list.replaceChildren(...webhooks.map(webhookItem));
      }
    } catch {
      // The next poll tries again; the list keeps what it showed.
    }
    setTimeout(refresh, POLL_MS);
  };
  refresh();
}

function webhookItem(webhook) {
  const item = document.createElement("li");
  item.dataset.type = webhook.type;
  item.dataset.webhookId = webhook.id;
  const details = document.createElement("details");
  const summary = document.createElement("summary");
  const time = document.createElement("time");
  time.dateTime = webhook.received_at;
  time.textContent = new Date(webhook.received_at).toLocaleTimeString();
  const type = document.createElement("strong");
  type.textContent = webhook.type;
  summary.append(time, " ", type, " ", webhook.id, " ✓ signature verified");
  const payload = document.createElement("pre");
  payload.textContent = JSON.stringify(webhook.payload, null, 2);
  details.append(summary, payload);
  item.append(details);
  return item;
}
