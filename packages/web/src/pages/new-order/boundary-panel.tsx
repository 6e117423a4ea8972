import type { ParcelView } from "@lotline/contract";
import { orderFailureMessage } from "@lotline/contract/order-failures";
import { useEffect, useRef, useState } from "preact/hooks";
import type { ApiClient } from "../../api/api-client";
import { checkBoundary } from "../../api/check-boundary";
import { formatArea } from "../../format/format-area";
import { squareFeet } from "../../format/square-feet";
import type { BoundaryDrawing } from "../../map/boundary-drawing";
import type { LotMap } from "../../map/create-map";
import { AlertMessage } from "../../ui/alert-message";
import { Panel } from "../../ui/panel";
import { StatusMessage } from "../../ui/status-message";
import type { BoundaryAction, BoundaryHistory } from "./boundary-history";

export interface BoundaryPanelProps {
  api: ApiClient;
  map: LotMap | undefined;
  /** The imported parcel at the location; null where there is none. */
  parcel: ParcelView | null;
  history: BoundaryHistory;
  onChange: (action: BoundaryAction) => void;
  /** Once the order is placed, the boundary is fixed. */
  locked: boolean;
}

/**
 * The order's parcel boundary: which one it is, and Redraw (Terra Draw's polygon mode on the map, checked by the
 * server before it is taken), Undo and Reset to the imported boundary. A refused drawing is explained in an alert
 * and the previous boundary stays.
 */
export function BoundaryPanel({ api, map, parcel, history, onChange, locked }: BoundaryPanelProps) {
  const drawing = useRef<BoundaryDrawing | undefined>(undefined);
  const [mode, setMode] = useState<"idle" | "drawing" | "checking">("idle");
  const [problem, setProblem] = useState("");
  const [status, setStatus] = useState("");

  // Terra Draw is loaded once the map is there, apart from the page's first script: most orders keep the imported
  // boundary, and Redraw is ready by the time anyone reaches for it.
  const [drawingReady, setDrawingReady] = useState(false);
  useEffect(() => {
    if (!map || drawing.current) return;
    let cancelled = false;
    import("../../map/boundary-drawing").then(({ createBoundaryDrawing }) => {
      if (cancelled) return;
      drawing.current = createBoundaryDrawing(map.map);
      setDrawingReady(true);
    });
    return () => {
      cancelled = true;
    };
  }, [map]);

  // Leaving the page, or placing the order, ends a drawing in progress.
  useEffect(() => {
    if (locked) drawing.current?.cancel();
    return () => drawing.current?.cancel();
  }, [locked]);

  const redraw = () => {
    if (!drawing.current) return;
    setProblem("");
    setMode("drawing");
    setStatus("Click each corner of the parcel on the map. Click the first corner again, or press Enter, to finish.");
    drawing.current.start(async (boundary) => {
      setMode("checking");
      setStatus("Checking the new boundary…");
      try {
        const check = await checkBoundary(api, boundary);
        if (check.valid) {
          onChange({ type: "accept", choice: { drawn: boundary, area_m2: check.area_m2 } });
          setStatus("The new boundary is used for the order.");
        } else {
          setProblem(`The new boundary cannot be used: ${check.message ?? orderFailureMessage(check.reason)}`);
          setStatus("The previous boundary is kept.");
        }
      } catch (error) {
        setProblem(`The new boundary could not be checked: ${error instanceof Error ? error.message : error}`);
        setStatus("The previous boundary is kept.");
      }
      setMode("idle");
    });
  };
  const cancel = () => {
    drawing.current?.cancel();
    setMode("idle");
    setStatus("Drawing cancelled. The previous boundary is kept.");
  };
  const change = (action: BoundaryAction, done: string) => {
    setProblem("");
    onChange(action);
    setStatus(done);
  };

  const busy = mode !== "idle" || locked;
  return (
    <Panel title="Parcel boundary">
      <p>{describeBoundary(history, parcel)}</p>
      <div class="button-row">
        {mode === "drawing" ? (
          <button type="button" class="button button--secondary" onClick={cancel}>
            Cancel drawing
          </button>
        ) : (
          <button type="button" class="button button--secondary" onClick={redraw} disabled={busy || !drawingReady}>
            Redraw boundary
          </button>
        )}
        <button
          type="button"
          class="button button--secondary"
          onClick={() => change({ type: "undo" }, "The last boundary change is undone.")}
          disabled={busy || history.past.length === 0}
        >
          Undo
        </button>
        <button
          type="button"
          class="button button--secondary"
          onClick={() => change({ type: "reset" }, "The imported boundary is used again.")}
          disabled={busy || parcel === null || history.current.drawn === null}
        >
          Reset to imported boundary
        </button>
      </div>
      <StatusMessage>{status && <p>{status}</p>}</StatusMessage>
      <AlertMessage id="boundary-message" message={problem} />
    </Panel>
  );
}

function describeBoundary({ current }: BoundaryHistory, parcel: ParcelView | null): string {
  if (current.drawn !== null) {
    const area = current.area_m2;
    return area === undefined ? "A boundary you drew." : `A boundary you drew: ${formatArea(area, squareFeet(area))}.`;
  }
  if (parcel === null) return "No parcel was found at this location. Redraw the boundary to give the order one.";
  return `The imported parcel ${parcel.source_id}: ${formatArea(parcel.area_m2, squareFeet(parcel.area_m2))}.`;
}
