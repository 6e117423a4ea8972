import type { FootprintAccepted, FootprintSubmission } from "@lotline/contract";
import type { ApiClient } from "./api-client";

/** `POST /embed/api/footprints`: stores the insured buildings and queues their webhook to `callback_url`. */
export function submitFootprints(api: ApiClient, submission: FootprintSubmission): Promise<FootprintAccepted> {
  return api.request<FootprintAccepted>("/footprints", { method: "POST", body: submission });
}
