import type { ComponentChildren } from "preact";

/** One term and its value; a `wide` value (a nested list) goes under its term rather than beside it. */
export type Definition = readonly [term: string, value: ComponentChildren, options?: { wide?: boolean }];

/** Terms and their values, as a `<dl>`; nothing when there are none. */
export function DefinitionList({ items }: { items: readonly Definition[] }) {
  if (items.length === 0) return null;
  return (
    <dl class="definitions">
      {items.map(([term, value, options]) => (
        <div class={options?.wide ? "definitions__item definitions__item--wide" : "definitions__item"} key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
