import type { OrderRequest } from "@lotline/contract";
import { useEffect, useMemo, useReducer, useState } from "preact/hooks";
import { useCallbackProblem } from "../../callback/use-callback-problem";
import { LocatePanel } from "../../locate/locate-panel";
import { LotStatus } from "../../locate/lot-status";
import { nearOf } from "../../locate/near-of";
import { useLocatedLot } from "../../locate/use-located-lot";
import { useUnfoundHostAddress } from "../../locate/use-unfound-host-address";
import type { LotMap } from "../../map/create-map";
import { MapView } from "../../map/map-view";
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
import { boundaryHistory, initialBoundaryHistory } from "./boundary-history";
import { BoundaryPanel } from "./boundary-panel";
import { OrderForm } from "./order-form";
import { initialOrderForm, type OrderFormValues } from "./order-form-values";
import type { OrderParams } from "./order-params";
import { OrderProgress } from "./order-progress";
import { usePlaceOrder } from "./use-place-order";
import { type OrderFormErrors, validateOrderForm } from "./validate-order-form";

/**
 * The new order page: find the property (address or map), review its parcel and buildings, redraw the boundary if
 * need be, fill in the policy fields and place the order, then follow it to completion.
 */
export function NewOrderPage({ context, params }: { context: PageContext; params: OrderParams }) {
  const { api, session } = context;
  const info = session.get().info;
  const [map, setMap] = useState<LotMap | undefined>(undefined);
  const { locate, located, lotState, lot } = useLocatedLot(api, params.address);
  const addressNotice = useUnfoundHostAddress(locate.state, params.address);
  const callbackProblem = useCallbackProblem(params.callback_url);
  const [boundary, changeBoundary] = useReducer(boundaryHistory, initialBoundaryHistory);
  const [values, setValues] = useState<OrderFormValues>(() => initialOrderForm(info, params));
  const [errors, setErrors] = useState<OrderFormErrors>({});
  // Once the user has tried to place the order, the errors follow their corrections as they type.
  const [tried, setTried] = useState(false);
  const change = (next: OrderFormValues) => {
    setValues(next);
    if (tried) setErrors(validateOrderForm(next, info.custom_fields).errors);
  };
  const order = usePlaceOrder(api);
  const locked = order.state.status !== "editing" && order.state.status !== "refused";

  // A new location starts from its own imported parcel.
  useEffect(() => changeBoundary({ type: "start-over" }), [lot]);
  const shownBoundary = boundary.current.drawn ?? lot?.parcel?.boundary ?? null;
  const buildings = useMemo(
    () =>
      (lot?.buildings ?? []).map((building) => ({
        building_id: building.building_id,
        footprint: building.footprint,
        primary: building.role === "primary_dwelling",
        selected: false,
      })),
    [lot],
  );
  useMapParcel(map, shownBoundary, lot?.parcel?.attribution ?? null);
  useMapBuildings(map, buildings);
  useMapPin(map, located?.location ?? null);
  useMapFit(map, lot?.parcel?.boundary ?? null, located?.location ?? nearOf(locate.state));
  useMapClick(map, locked || located ? undefined : locate.placeAt);

  const submit = () => {
    if (!located || callbackProblem) return;
    const checked = validateOrderForm(values, info.custom_fields);
    setTried(true);
    setErrors(checked.errors);
    const invalid = Object.keys(checked.errors)[0];
    if (invalid !== undefined) {
      document.getElementById(invalid)?.focus();
      return;
    }
    const request: OrderRequest = {
      ...checked.fields,
      location: located.location,
      ...addressOf(located.address ?? lot?.address ?? params.address),
      ...(boundary.current.drawn ? { parcel_boundary: boundary.current.drawn } : {}),
      ...(params.callback_url ? { callback_url: params.callback_url } : {}),
    };
    order.place(request);
  };

  const errorCount = Object.keys(errors).length;
  return (
    <PageLayout
      title="New order"
      banner={<TimeLeftBanner store={session} />}
      map={
        <MapView
          settings={info.map}
          api={api}
          onReady={setMap}
          label="Map of the property to order"
          notice={addressNotice}
        />
      }
    >
      <AlertMessage id="callback-problem" message={callbackProblem} />
      <LocatePanel locate={locate} initialAddress={params.address} nearestAddress={lot?.address} />
      <LotStatus state={lotState} />
      {lot && (
        <BoundaryPanel
          api={api}
          map={map}
          parcel={lot.parcel}
          history={boundary}
          onChange={changeBoundary}
          locked={locked}
        />
      )}
      <Panel title="Order">
        {locked ? null : (
          <OrderForm
            session={info}
            values={values}
            errors={errors}
            onChange={change}
            onSubmit={submit}
            blocked={blockedBecause(callbackProblem, located !== null)}
            busy={order.state.status === "placing"}
          />
        )}
        <AlertMessage message={formProblem(errorCount) ?? (order.state.status === "refused" && order.state.message)} />
        <OrderProgress state={order.state} />
      </Panel>
    </PageLayout>
  );
}

/** Why "Place order" cannot be pressed yet, or undefined when it can. */
function blockedBecause(callbackProblem: string | undefined, located: boolean): string | undefined {
  if (callbackProblem) return "The order cannot be placed: its callback URL is not registered (see above).";
  return located ? undefined : "Locate the property first: search for its address or click the map.";
}

function formProblem(errorCount: number): string | undefined {
  if (errorCount === 0) return undefined;
  return errorCount === 1
    ? "Correct the marked field before placing the order."
    : `Correct the ${errorCount} marked fields before placing the order.`;
}

function addressOf(address: string | null | undefined): { address?: string } {
  const text = address?.trim().slice(0, 300);
  return text ? { address: text } : {};
}
