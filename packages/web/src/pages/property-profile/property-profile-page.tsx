import type { CustomField, PropertyRecord } from "@lotline/contract";
import { useEffect, useMemo, useState } from "preact/hooks";
import type { ApiClient } from "../../api/api-client";
import type { LotMap } from "../../map/create-map";
import { MapView } from "../../map/map-view";
import { useMapBuildings } from "../../map/use-map-buildings";
import { useMapFit } from "../../map/use-map-fit";
import { useMapParcel } from "../../map/use-map-parcel";
import { useMapPin } from "../../map/use-map-pin";
import { postToHost } from "../../messages/post-to-host";
import type { PageContext } from "../../session/start-page-session";
import { TimeLeftBanner } from "../../session/time-left-banner";
import { AlertMessage } from "../../ui/alert-message";
import { PageLayout } from "../../ui/page-layout";
import { StatusMessage } from "../../ui/status-message";
import { EventsPanel } from "./events-panel";
import { OrderHistoryPanel } from "./order-history-panel";
import { PolicyBuildingsPanel } from "./policy-buildings-panel";
import { PolicyPanel } from "./policy-panel";
import { parcelAttributionOf, parcelBoundaryOf, productOf } from "./product-data";
import { ProductPanel } from "./product-panel";
import { profileBuildings } from "./profile-buildings";
import { ThirdPartyPanel } from "./third-party-panel";
import { useProperty } from "./use-property";
import { VersionsPanel } from "./versions-panel";

/** The property profile: the property on the map, its data products with their sources, its policy and orders. */
export function PropertyProfilePage({ context, propertyId }: { context: PageContext; propertyId: number }) {
  const { api, session } = context;
  const info = session.get().info;
  const [map, setMap] = useState<LotMap | undefined>(undefined);
  const state = useProperty(api, propertyId);
  const record = state.status === "ready" ? state.record : null;

  const boundary = useMemo(() => (record ? parcelBoundaryOf(record) : null), [record]);
  const attribution = useMemo(() => (record ? parcelAttributionOf(record) : null), [record]);
  const buildings = useMemo(() => (record ? profileBuildings(record) : []), [record]);
  useMapParcel(map, boundary, attribution);
  useMapBuildings(map, buildings);
  useMapPin(map, record?.location ?? null);
  useMapFit(map, boundary, record?.location ?? null);

  const failure = failureMessage(state, propertyId);
  useEffect(() => {
    if (failure) postToHost({ type: "service-error", message: failure, property_id: propertyId });
  }, [failure, propertyId]);

  return (
    <PageLayout
      title={record?.address ?? `Property ${propertyId}`}
      banner={<TimeLeftBanner store={session} />}
      map={failure ? undefined : <MapView settings={info.map} api={api} onReady={setMap} label="Map of the property" />}
    >
      <StatusMessage>{state.status === "loading" && <p>Loading property {propertyId}…</p>}</StatusMessage>
      <AlertMessage message={failure} />
      {record && <Panels api={api} record={record} customFields={info.custom_fields} />}
    </PageLayout>
  );
}

function Panels({
  api,
  record,
  customFields,
}: {
  api: ApiClient;
  record: PropertyRecord;
  customFields: readonly CustomField[];
}) {
  return (
    <>
      <p class="muted">
        Property {record.property_id}
        {record.policy.external_id ? ` · External ID ${record.policy.external_id}` : ""}
        {record.version > 0 ? ` · Data version ${record.version}` : ""}
      </p>
      <ProductPanel title="Parcel" data={productOf(record, "parcel")} />
      <ProductPanel title="Structures" data={productOf(record, "structures")} />
      <ProductPanel title="Exposure" data={productOf(record, "exposure")} />
      <ProductPanel title="Location" data={productOf(record, "location")} />
      <ThirdPartyPanel data={productOf(record, "third_party")} />
      <PolicyPanel policy={record.policy} customFields={customFields} />
      <PolicyBuildingsPanel buildings={record.policy_buildings} />
      <EventsPanel events={record.events} />
      <OrderHistoryPanel orders={record.orders} />
      <VersionsPanel api={api} propertyId={record.property_id} current={record.version} />
    </>
  );
}

function failureMessage(state: ReturnType<typeof useProperty>, propertyId: number): string | undefined {
  if (state.status === "not-found") {
    return `Property ${propertyId} was not found. It may not exist, or it may belong to another organization.`;
  }
  if (state.status === "error") return `Property ${propertyId} could not be loaded: ${state.message}`;
  return undefined;
}
