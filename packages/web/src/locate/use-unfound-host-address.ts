import { useEffect, useRef } from "preact/hooks";
import { postToHost } from "../messages/post-to-host";
import type { LocateState } from "./locate-state";

/**
 * The address the host passed, when no address on file matches it: the host hears it once (`service-error`), and
 * the answer is the sentence the map shows while the page still stands on that search; undefined otherwise.
 */
export function useUnfoundHostAddress(state: LocateState, hostAddress: string): string | undefined {
  const unfound = hostAddress !== "" && state.status === "not-found" && state.query === hostAddress;
  const reported = useRef(false);
  useEffect(() => {
    if (!unfound || reported.current) return;
    reported.current = true;
    postToHost({ type: "service-error", message: `The address “${hostAddress}” could not be found.` });
  }, [unfound, hostAddress]);
  return unfound
    ? `The address “${hostAddress}” could not be found. Click the map to place the property, or search for it again.`
    : undefined;
}
