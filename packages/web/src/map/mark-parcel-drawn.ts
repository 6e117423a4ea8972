import type { Map as MapLibreMap } from "maplibre-gl";

/** The performance mark set when the subject parcel is first on screen (the page benchmark measures to it). */
export const PARCEL_DRAWN_MARK = "lotline:parcel-drawn";

let marked = false;

/**
 * Once the map has drawn the data just given to it (the next `idle`), flags the page: `<html data-parcel-drawn="true">`
 * and the `lotline:parcel-drawn` performance mark (set once per page), which browser tests and the benchmark wait for.
 */
export function markParcelDrawnWhenIdle(map: MapLibreMap): void {
  map.once("idle", () => {
    document.documentElement.dataset.parcelDrawn = "true";
    if (marked) return;
    marked = true;
    performance.mark(PARCEL_DRAWN_MARK);
  });
}
