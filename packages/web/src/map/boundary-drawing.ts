import type { Polygon } from "geojson";
import type { Map as MapLibreMap } from "maplibre-gl";
import { TerraDraw, TerraDrawPolygonMode } from "terra-draw";
import { TerraDrawMapLibreGLAdapter } from "terra-draw-maplibre-gl-adapter";

/** Drawing a new parcel boundary on the map, one polygon at a time. */
export interface BoundaryDrawing {
  /**
   * Lets the user draw a polygon (click each corner; click the first corner or press Enter to close it; Escape
   * drops the corners so far) and calls `onDrawn` with it once it is closed; drawing then stops.
   */
  start(onDrawn: (boundary: Polygon) => void): void;
  /** Stops drawing and drops an unfinished polygon. */
  cancel(): void;
}

const DRAWING_COLOUR = "#c2410c";

/**
 * A {@link BoundaryDrawing} on `map` with Terra Draw's polygon mode. Terra Draw runs only while the user draws, so
 * at other times clicks on the map reach the page's own handlers.
 */
export function createBoundaryDrawing(map: MapLibreMap): BoundaryDrawing {
  const draw = new TerraDraw({
    adapter: new TerraDrawMapLibreGLAdapter({ map }),
    modes: [
      new TerraDrawPolygonMode({
        styles: {
          fillColor: DRAWING_COLOUR,
          fillOpacity: 0.15,
          outlineColor: DRAWING_COLOUR,
          outlineWidth: 3,
          closingPointColor: "#ffffff",
          closingPointOutlineColor: DRAWING_COLOUR,
          closingPointWidth: 6,
          closingPointOutlineWidth: 2,
        },
      }),
    ],
  });
  let onFinish: ((id: string | number) => void) | undefined;
  draw.on("finish", (id) => onFinish?.(id));

  const stop = () => {
    onFinish = undefined;
    if (draw.enabled) draw.stop();
  };
  return {
    start(onDrawn) {
      stop();
      draw.start();
      draw.setMode("polygon");
      onFinish = (id) => {
        const geometry = draw.getSnapshotFeature(id)?.geometry;
        // Terra Draw is still inside its own event handler: leave it before stopping it.
        window.setTimeout(stop, 0);
        if (geometry?.type === "Polygon") onDrawn({ type: "Polygon", coordinates: geometry.coordinates });
      };
    },
    cancel: stop,
  };
}
