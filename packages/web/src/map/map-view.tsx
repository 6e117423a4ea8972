import type { MapSettings } from "@lotline/contract";
import { useEffect, useRef, useState } from "preact/hooks";
import type { ApiClient } from "../api/api-client";
import { createMap, type LotMap } from "./create-map";

export interface MapViewProps {
  settings: MapSettings;
  api: ApiClient;
  /** Called once the map can be drawn on. */
  onReady: (map: LotMap) => void;
  /** What the map shows, for assistive technology. */
  label: string;
  /** A sentence shown over the map, where the user looks for the property (an address that was not found). */
  notice?: string | undefined;
}

/**
 * The page's map (see {@link createMap}) in a labelled region. Where the browser cannot draw it (no WebGL), says so;
 * the rest of the page works without it.
 */
export function MapView({ settings, api, onReady, label, notice }: MapViewProps) {
  const container = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  // The map is made once per page: later props (a refreshed session) do not rebuild it.
  const initial = useRef({ settings, api, onReady });

  useEffect(() => {
    const element = container.current;
    if (element === null) return;
    let map: LotMap | undefined;
    let unmounted = false;
    createMap(element, initial.current).then(
      (created) => {
        if (unmounted) created.remove();
        else {
          map = created;
          initial.current.onReady(created);
        }
      },
      (error: unknown) => {
        console.error("The map could not be created", error);
        setFailed(true);
      },
    );
    return () => {
      unmounted = true;
      map?.remove();
    };
  }, []);

  return (
    <section class="map" aria-label={label}>
      <div class="map__canvas" ref={container} />
      {notice && <p class="map__notice">{notice}</p>}
      {failed && (
        <p class="map__failed" role="status">
          The map cannot be shown in this browser (it needs WebGL). Everything else on this page still works.
        </p>
      )}
    </section>
  );
}
