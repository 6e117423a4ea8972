import type { ComponentChildren } from "preact";
import { useId } from "preact/hooks";

/** A titled section of a page's side column, named by its heading for assistive technology. */
export function Panel({
  title,
  children,
  class: className,
}: {
  title: string;
  children: ComponentChildren;
  class?: string;
}) {
  const headingId = useId();
  return (
    <section class={className ? `panel ${className}` : "panel"} aria-labelledby={headingId}>
      <h2 class="panel__title" id={headingId}>
        {title}
      </h2>
      {children}
    </section>
  );
}
