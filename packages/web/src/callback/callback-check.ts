import type { CallbackCheck } from "@lotline/contract";
import { readJsonScript } from "../session/read-json-script";

export type { CallbackCheck };

/**
 * The id of the element holding the verdict: the contract's `CALLBACK_CHECK_ELEMENT_ID`, written out because a
 * value import of the contract's root would bring its schema library into the page bundle.
 */
const CALLBACK_CHECK_ELEMENT_ID = "lotline-callback-check";

/** The verdict the server inlined on the page's `callback_url`, or undefined when there is none. */
export function readCallbackCheck(): CallbackCheck | undefined {
  return readJsonScript<CallbackCheck>(CALLBACK_CHECK_ELEMENT_ID);
}
