import type { FootprintSubmission, WebhookDelivery } from "@lotline/contract";
import { useCallback, useState } from "preact/hooks";
import type { ApiClient } from "../../api/api-client";
import { getWebhookDelivery } from "../../api/get-webhook-delivery";
import { submitFootprints } from "../../api/submit-footprints";
import { postToHost } from "../../messages/post-to-host";
import { backoffDelay } from "../../poll/backoff-delay";
import { pollUntil } from "../../poll/poll-until";

export type SubmitState =
  | { status: "idle" }
  | { status: "submitting" }
  /** Stored; no callback_url was given, so nothing is delivered. */
  | { status: "stored"; address: string }
  /** Stored; the webhook to callback_url is on its way (`retrying`: an attempt failed and it will be tried again). */
  | { status: "delivering"; address: string; retrying: { attempts: number; lastError: string } | null }
  | { status: "delivered"; address: string }
  | { status: "undelivered"; address: string; message: string }
  /** Not accepted; the selection stays open to correct and submit again. */
  | { status: "refused"; message: string };

/**
 * Submitting the selection (`POST /embed/api/footprints`) and, when a callback URL was given, following its webhook
 * (`GET /embed/api/webhook-deliveries/{id}`, about every second at first, then less often) until it is delivered
 * or given up. Tells the host: `service-footprint-submitted`, then `service-footprint-callback-completed`, or
 * `service-error`. The messages carry `hostAddress`, the address as the host passed it, when it passed one (so the
 * host can match them to its own record), else the address the selection was stored under.
 */
export function useSubmitFootprints(api: ApiClient, hostAddress: string) {
  const [state, setState] = useState<SubmitState>({ status: "idle" });

  const submit = useCallback(
    async (submission: FootprintSubmission) => {
      setState({ status: "submitting" });
      let address: string;
      let webhookId: string | null;
      try {
        const accepted = await submitFootprints(api, submission);
        address = accepted.address;
        webhookId = accepted.webhook_id;
      } catch (error) {
        const message = `The footprints could not be submitted: ${error instanceof Error ? error.message : error}`;
        setState({ status: "refused", message });
        postToHost({ type: "service-error", message });
        return;
      }
      const reported = hostAddress || address;
      postToHost({ type: "service-footprint-submitted", address: reported });
      if (webhookId === null) {
        setState({ status: "stored", address });
        return;
      }
      setState({ status: "delivering", address, retrying: null });
      try {
        const id = webhookId;
        const settled = await pollUntil(() => getWebhookDelivery(api, id), {
          done: (delivery: WebhookDelivery) => delivery.status !== "pending",
          onValue: (delivery) => {
            if (delivery.status === "pending" && delivery.attempts.length > 0) {
              setState({ status: "delivering", address, retrying: retryingOf(delivery) });
            }
          },
          delay: (calls) => backoffDelay(calls),
        });
        if (settled.status === "delivered") {
          setState({ status: "delivered", address });
          postToHost({ type: "service-footprint-callback-completed", address: reported });
        } else {
          const message = `The footprints were stored but could not be delivered to your system: ${lastError(settled)}`;
          setState({ status: "undelivered", address, message });
          postToHost({ type: "service-error", message });
        }
      } catch (error) {
        const message = `The delivery of the footprints could not be followed: ${error instanceof Error ? error.message : error}`;
        setState({ status: "undelivered", address, message });
        postToHost({ type: "service-error", message });
      }
    },
    [api, hostAddress],
  );
  return { state, submit };
}

function retryingOf(delivery: WebhookDelivery): { attempts: number; lastError: string } {
  return { attempts: delivery.attempts.length, lastError: lastError(delivery) };
}

/** What went wrong on the last attempt, in words. */
function lastError(delivery: WebhookDelivery): string {
  const last = delivery.attempts.at(-1);
  if (!last) return "no attempt was made.";
  if (last.error) return last.error;
  if (last.status_code !== null) return `your system answered HTTP ${last.status_code}.`;
  return "the attempt failed.";
}
