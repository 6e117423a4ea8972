import type { Lot } from "@lotline/contract";
import type { ApiClient } from "../api/api-client";
import type { Located } from "./locate-state";
import { type Locate, useLocate } from "./use-locate";
import { type LotState, useLot } from "./use-lot";

/** Finding the property (starting from `address` when given) and the lot at the place found. */
export interface LocatedLot {
  locate: Locate;
  /** The place found; null while searching or choosing. */
  located: Located | null;
  lotState: LotState;
  /** The lot at the place found, once loaded. */
  lot: Lot | null;
}

/** What the new order and footprint selection pages both start from: an address turned into a lot. */
export function useLocatedLot(api: ApiClient, address: string | undefined): LocatedLot {
  const locate = useLocate(api, address || undefined);
  const located = locate.state.status === "located" ? locate.state : null;
  const lotState = useLot(api, located?.location ?? null);
  const lot = lotState.status === "ready" ? lotState.lot : null;
  return { locate, located, lotState, lot };
}
