import type { Polygon } from "geojson";

/** The order's parcel boundary: the imported parcel's (`drawn: null`), or one the user drew and the server accepted. */
export interface BoundaryChoice {
  drawn: Polygon | null;
  /** The drawn boundary's area as the server measured it, m². */
  area_m2?: number | undefined;
}

/** The current boundary and the ones before it, newest last, for Undo. */
export interface BoundaryHistory {
  current: BoundaryChoice;
  past: readonly BoundaryChoice[];
}

export const IMPORTED: BoundaryChoice = { drawn: null };

export const initialBoundaryHistory: BoundaryHistory = { current: IMPORTED, past: [] };

/**
 * A boundary change: a drawn boundary accepted, Reset to the imported one, Undo of the last change, or a fresh start
 * (another lot: its own imported parcel, nothing to undo).
 */
export type BoundaryAction =
  | { type: "accept"; choice: BoundaryChoice }
  | { type: "reset" }
  | { type: "undo" }
  | { type: "start-over" };

/**
 * The history after `action`. Accepting and resetting push the current boundary for Undo (a reset when the imported
 * boundary is already current changes nothing); Undo brings back the one before the last change.
 */
export function boundaryHistory(history: BoundaryHistory, action: BoundaryAction): BoundaryHistory {
  switch (action.type) {
    case "accept":
      return { current: action.choice, past: [...history.past, history.current] };
    case "reset":
      if (history.current.drawn === null) return history;
      return { current: IMPORTED, past: [...history.past, history.current] };
    case "start-over":
      return initialBoundaryHistory;
    case "undo": {
      const previous = history.past.at(-1);
      return previous ? { current: previous, past: history.past.slice(0, -1) } : history;
    }
  }
}
