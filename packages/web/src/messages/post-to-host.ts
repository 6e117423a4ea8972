import type { ServiceMessage } from "@lotline/contract";
import { hostOrigins } from "./host-origins";
import { targetOrigins } from "./target-origins";

/**
 * Tells the host page what happened (INTERFACE.md §6): posts `message` to `window.parent`, addressed to the exact
 * registered origin of the framing page (see {@link targetOrigins}), never to `*`. Does nothing when the page is
 * not framed.
 *
 * @example postToHost({ type: "service-order-processing", property_id: 42 });
 */
export function postToHost(message: ServiceMessage): void {
  if (window.parent === window) return;
  const origins = targetOrigins(
    { ancestorOrigin: window.location.ancestorOrigins?.[0], referrer: document.referrer },
    hostOrigins(),
  );
  for (const origin of origins) {
    window.parent.postMessage(message, origin);
  }
}
