import type { ComponentChildren } from "preact";

export interface PageLayoutProps {
  title: string;
  /** Shown under the title: the session's time left. */
  banner?: ComponentChildren;
  /** The map, above the panels on a narrow screen and beside them on a wide one. */
  map?: ComponentChildren;
  children: ComponentChildren;
}

/** The frame of every page with a map: a title, the map, and a column of panels. */
export function PageLayout({ title, banner, map, children }: PageLayoutProps) {
  return (
    <main class={map ? "page page--with-map" : "page"}>
      <header class="page__header">
        <h1 class="page__title">{title}</h1>
        {banner}
      </header>
      {map && <div class="page__map">{map}</div>}
      <div class="page__panels">{children}</div>
    </main>
  );
}
