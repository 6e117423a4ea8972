import { Panel } from "../ui/panel";
import { StatusMessage } from "../ui/status-message";
import { AddressSearch } from "./address-search";
import { CandidateList } from "./candidate-list";
import type { Locate } from "./use-locate";

/**
 * Where the property is: what the address search found (the address, a list to choose from, or nothing), and the
 * search box to try again. Until the property is placed, a click on the map places it too.
 */
export function LocatePanel({
  locate,
  initialAddress,
  nearestAddress,
}: {
  locate: Locate;
  initialAddress: string;
  /** The address on file nearest to a place the user clicked, once the lot there is known. */
  nearestAddress?: string | null | undefined;
}) {
  const { state } = locate;
  return (
    <Panel title="Location">
      <StatusMessage>
        {state.status === "idle" && <p>Search for the address, or click the map to place the property.</p>}
        {state.status === "searching" && <p>Looking up “{state.query}”…</p>}
        {state.status === "choose" && <p>Several addresses match “{state.query}”. Choose one:</p>}
        {state.status === "not-found" &&
          (state.near ? (
            <p>
              No address matching “{state.query}” was found. Click the map to place the property, or search for the
              address again.
            </p>
          ) : (
            <p>
              No address matching “{state.query}” was found. Search again (a street name is enough to find the
              neighbourhood), then click the map to place the property.
            </p>
          ))}
        {state.status === "located" && (
          <p>
            {state.address ?? "Placed on the map"}
            {state.how === "map" && state.address === null && (
              <span class="muted">
                {" "}
                ({state.location.lat.toFixed(6)}, {state.location.lon.toFixed(6)})
              </span>
            )}
            {state.how === "map" && nearestAddress && <> · Nearest address on file: {nearestAddress}</>}
          </p>
        )}
      </StatusMessage>
      {state.status === "error" && (
        <p class="error-text" role="alert">
          The address could not be looked up: {state.message}
        </p>
      )}
      {state.status === "choose" && <CandidateList candidates={state.candidates} onPick={locate.pick} />}
      <AddressSearch initial={initialAddress} onSearch={locate.search} />
    </Panel>
  );
}
