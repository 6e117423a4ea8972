import { StatusMessage } from "../../ui/status-message";
import type { SubmitState } from "./use-submit-footprints";

/** What became of the submitted selection, announced as it changes. */
export function SubmissionProgress({ state }: { state: SubmitState }) {
  return (
    <StatusMessage class="submission-progress">
      {state.status === "submitting" && <p class="busy">Submitting the footprints…</p>}
      {state.status === "stored" && (
        <div class="done">
          <p class="done__title">The selection is stored.</p>
          <p>No callback URL was given, so nothing is sent to your system.</p>
        </div>
      )}
      {state.status === "delivering" && state.retrying === null && (
        <p class="busy">The selection is stored. Sending it to your system…</p>
      )}
      {state.status === "delivering" && state.retrying !== null && (
        <p class="busy">
          The selection is stored. Sending it to your system is retrying ({state.retrying.attempts}{" "}
          {state.retrying.attempts === 1 ? "attempt" : "attempts"} so far). Last error: {state.retrying.lastError}
        </p>
      )}
      {state.status === "delivered" && (
        <div class="done">
          <p class="done__title">The selection is stored and delivered to your system.</p>
        </div>
      )}
      {state.status === "undelivered" && (
        <div class="failed">
          <p>{state.message}</p>
        </div>
      )}
    </StatusMessage>
  );
}
