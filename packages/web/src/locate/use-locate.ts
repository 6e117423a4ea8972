import type { AddressCandidate } from "@lotline/contract";
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import type { ApiClient } from "../api/api-client";
import { searchAddresses } from "../api/search-addresses";
import type { LatLon } from "../map/create-map";
import { chooseCandidate } from "./choose-candidate";
import type { LocateState } from "./locate-state";

/** Finding the property: by address search, by picking a candidate, or by a click on the map. */
export interface Locate {
  state: LocateState;
  search(text: string): void;
  pick(candidate: AddressCandidate): void;
  placeAt(location: LatLon): void;
}

/**
 * The state of finding the property, starting with `initialAddress` when the page was given one. A search whose
 * answer arrives after a newer action is ignored.
 */
export function useLocate(api: ApiClient, initialAddress: string | undefined): Locate {
  const [state, setState] = useState<LocateState>(() =>
    initialAddress ? { status: "searching", query: initialAddress } : { status: "idle" },
  );
  const generation = useRef(0);

  const search = useCallback(
    async (text: string) => {
      const query = text.trim();
      const mine = ++generation.current;
      if (query === "") {
        setState({ status: "idle" });
        return;
      }
      setState({ status: "searching", query });
      try {
        const { data } = await searchAddresses(api, query);
        if (mine !== generation.current) return;
        const choice = chooseCandidate(data);
        if (choice.kind === "clear") {
          const { location, address } = choice.candidate;
          setState({ status: "located", location, address, how: "address" });
        } else if (choice.kind === "choose") {
          setState({ status: "choose", query, candidates: choice.candidates });
        } else {
          setState({ status: "not-found", query, near: data[0]?.location ?? null });
        }
      } catch (error) {
        if (mine !== generation.current) return;
        setState({ status: "error", message: error instanceof Error ? error.message : String(error) });
      }
    },
    [api],
  );

  const pick = useCallback((candidate: AddressCandidate) => {
    generation.current++;
    setState({ status: "located", location: candidate.location, address: candidate.address, how: "address" });
  }, []);

  const placeAt = useCallback((location: LatLon) => {
    generation.current++;
    setState({ status: "located", location, address: null, how: "map" });
  }, []);

  // The address the page was opened with is looked up once, at the start.
  const initial = useRef(initialAddress);
  useEffect(() => {
    if (initial.current) search(initial.current);
  }, [search]);

  return { state, search, pick, placeAt };
}
