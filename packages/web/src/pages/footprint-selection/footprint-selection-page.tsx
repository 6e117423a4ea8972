import type { FootprintSubmission, Lot, ParcelView } from "@lotline/contract";
import { useEffect, useMemo, useReducer, useState } from "preact/hooks";
import { useCallbackProblem } from "../../callback/use-callback-problem";
import { LocatePanel } from "../../locate/locate-panel";
import { LotStatus } from "../../locate/lot-status";
import { nearOf } from "../../locate/near-of";
import { useLocatedLot } from "../../locate/use-located-lot";
import { useUnfoundHostAddress } from "../../locate/use-unfound-host-address";
import type { LotMap } from "../../map/create-map";
import { MapView } from "../../map/map-view";
import { useBuildingClick } from "../../map/use-building-click";
import { useMapBuildings } from "../../map/use-map-buildings";
import { useMapClick } from "../../map/use-map-click";
import { useMapFit } from "../../map/use-map-fit";
import { useMapParcel } from "../../map/use-map-parcel";
import { useMapPin } from "../../map/use-map-pin";
import type { PageContext } from "../../session/start-page-session";
import { TimeLeftBanner } from "../../session/time-left-banner";
import { AlertMessage } from "../../ui/alert-message";
import { PageLayout } from "../../ui/page-layout";
import { Panel } from "../../ui/panel";
import { BuildingChecklist } from "./building-checklist";
import type { FootprintParams } from "./footprint-params";
import { type FootprintSelection, footprintSelection } from "./footprint-selection";
import { SubmissionProgress } from "./submission-progress";
import { useSubmitFootprints } from "./use-submit-footprints";

/**
 * The footprint selection page: find the property, then pick the insured buildings on its parcel, by clicking
 * their footprints on the map or ticking them in the list (the two stay in step), give each a role if need be, and
 * submit them to be stored and sent to the host's callback URL.
 */
export function FootprintSelectionPage({ context, params }: { context: PageContext; params: FootprintParams }) {
  const { api, session } = context;
  const info = session.get().info;
  const [map, setMap] = useState<LotMap | undefined>(undefined);
  const { locate, located, lotState, lot } = useLocatedLot(api, params.address);
  const addressNotice = useUnfoundHostAddress(locate.state, params.address);
  const callbackProblem = useCallbackProblem(params.callback_url);
  const [selection, changeSelection] = useReducer(footprintSelection, new Map());
  const submission = useSubmitFootprints(api, params.address);
  const busy = submission.state.status === "submitting";

  useEffect(() => changeSelection({ type: "clear" }), [lot]);
  const buildings = useMemo(
    () =>
      (lot?.buildings ?? []).map((building) => ({
        building_id: building.building_id,
        footprint: building.footprint,
        primary: building.role === "primary_dwelling",
        selected: selection.has(building.building_id),
        label: { number: building.number, at: building.centroid },
      })),
    [lot, selection],
  );
  useMapParcel(map, lot?.parcel?.boundary ?? null, lot?.parcel?.attribution ?? null);
  useMapBuildings(map, buildings);
  useMapPin(map, located?.location ?? null);
  useMapFit(map, lot?.parcel?.boundary ?? null, located?.location ?? nearOf(locate.state));
  useMapClick(map, located ? undefined : locate.placeAt);
  useBuildingClick(map, (buildingId) => {
    const building = lot?.buildings.find((candidate) => candidate.building_id === buildingId);
    if (building && !busy) changeSelection({ type: "toggle", buildingId, suggestedRole: building.role });
  });

  const submit = () => {
    if (!lot?.parcel || selection.size === 0 || callbackProblem) return;
    submission.submit(submissionOf(lot, lot.parcel, selection, params, located?.address ?? null));
  };

  return (
    <PageLayout
      title="Footprint selection"
      banner={<TimeLeftBanner store={session} />}
      map={
        <MapView
          settings={info.map}
          api={api}
          onReady={setMap}
          label="Map of the parcel and its buildings"
          notice={addressNotice}
        />
      }
    >
      <AlertMessage id="callback-problem" message={callbackProblem} />
      <LocatePanel locate={locate} initialAddress={params.address} nearestAddress={lot?.address} />
      <LotStatus state={lotState} />
      {lot && (
        <Panel title="Buildings">
          {lot.parcel === null ? (
            <p>No parcel was found at this location, so no buildings can be chosen here. Try another address.</p>
          ) : lot.buildings.length === 0 ? (
            <p>No building footprints are on file for this parcel.</p>
          ) : (
            <form
              class="form"
              onSubmit={(event) => {
                event.preventDefault();
                submit();
              }}
            >
              <p class="muted">Select the insured buildings in the list, or click their footprints on the map.</p>
              <BuildingChecklist
                buildings={lot.buildings}
                selection={selection}
                onChange={changeSelection}
                disabled={busy}
              />
              <p class="muted" id="selection-count">
                {selection.size === 0
                  ? "No building selected yet."
                  : `${selection.size} of ${lot.buildings.length} ${lot.buildings.length === 1 ? "building" : "buildings"} selected.`}
              </p>
              <button
                type="submit"
                class="button button--primary"
                disabled={busy || selection.size === 0 || callbackProblem !== undefined}
                aria-describedby="selection-count"
              >
                Submit footprints
              </button>
            </form>
          )}
          <AlertMessage message={submission.state.status === "refused" && submission.state.message} />
          <SubmissionProgress state={submission.state} />
        </Panel>
      )}
    </PageLayout>
  );
}

/** The submission of the selected buildings of `parcel`, under the address the property was found by. */
function submissionOf(
  lot: Lot,
  parcel: ParcelView,
  selection: FootprintSelection,
  params: FootprintParams,
  locatedAddress: string | null,
): FootprintSubmission {
  const address = (locatedAddress ?? lot.address ?? params.address) || `${lot.location.lat}, ${lot.location.lon}`;
  return {
    address: address.slice(0, 300),
    ...(params.external_id ? { external_id: params.external_id.slice(0, 200) } : {}),
    ...(params.callback_url ? { callback_url: params.callback_url } : {}),
    parcel_id: parcel.parcel_id,
    buildings: [...selection].map(([building_id, role]) => ({
      building_id,
      ...(role === null ? {} : { role }),
    })),
  };
}
