import type { ComponentChildren } from "preact";

/**
 * A polite live region: what it says is announced when it changes. Keep it in the page even when empty, since
 * screen readers only announce changes to regions they already know.
 */
export function StatusMessage({ children, class: className }: { children?: ComponentChildren; class?: string }) {
  return (
    <div class={className ? `status ${className}` : "status"} role="status">
      {children}
    </div>
  );
}
