import { useEffect, useState } from "preact/hooks";
import { postToHost } from "../messages/post-to-host";
import { readCallbackCheck } from "./callback-check";

/**
 * Why the page's `callback_url` cannot be used, in words, or undefined when it can (or there is none). The host
 * hears it at once as a `service-error`, before the user does any work the server would then refuse.
 */
export function useCallbackProblem(callbackUrl: string): string | undefined {
  const [problem] = useState(() =>
    readCallbackCheck()?.callback_url === "not_registered" ? notRegistered(callbackUrl) : undefined,
  );
  useEffect(() => {
    if (problem) postToHost({ type: "service-error", message: problem });
  }, [problem]);
  return problem;
}

function notRegistered(callbackUrl: string): string {
  return `The callback URL “${callbackUrl}” does not start with one of your organization's registered callback prefixes, so nothing can be sent to it. Open this page again with a registered callback URL.`;
}
