import type { Lot } from "@lotline/contract";
import { useEffect, useState } from "preact/hooks";
import type { ApiClient } from "../api/api-client";
import { getLot } from "../api/get-lot";
import type { LatLon } from "../map/create-map";

export type LotState =
  | { status: "none" }
  | { status: "loading" }
  | { status: "ready"; lot: Lot }
  | { status: "error"; message: string };

/** The lot at `location` (`GET /embed/api/lots`), fetched again whenever the location changes. */
export function useLot(api: ApiClient, location: LatLon | null): LotState {
  const [state, setState] = useState<LotState>({ status: "none" });
  const lat = location?.lat;
  const lon = location?.lon;
  useEffect(() => {
    if (lat === undefined || lon === undefined) {
      setState({ status: "none" });
      return;
    }
    let stale = false;
    setState({ status: "loading" });
    getLot(api, { lat, lon }).then(
      (lot) => {
        if (!stale) setState({ status: "ready", lot });
      },
      (error: unknown) => {
        if (!stale) setState({ status: "error", message: error instanceof Error ? error.message : String(error) });
      },
    );
    return () => {
      stale = true;
    };
  }, [api, lat, lon]);
  return state;
}
