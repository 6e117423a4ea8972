import type { PropertyEvent } from "@lotline/contract";
import { formatDate } from "../../format/format-date";
import { formatDateTime } from "../../format/format-date-time";
import { formatNumber } from "../../format/format-number";
import { type Definition, DefinitionList } from "../../ui/definition-list";
import { Panel } from "../../ui/panel";

const PERIL_NAMES = {
  flood: "Flood",
  wind: "Wind",
  hail: "Hail",
  wildfire: "Wildfire",
  earthquake: "Earthquake",
  other: "Other",
} as const;

/** The catastrophe events whose area met the property, newest first: how much of the lot, which buildings, how hard. */
export function EventsPanel({ events }: { events: readonly PropertyEvent[] }) {
  return (
    <Panel title="Catastrophe events">
      {events.length === 0 ? (
        <p class="muted">No recorded event has touched this property.</p>
      ) : (
        <ol class="orders">
          {events.map((event) => (
            <li class="orders__item" key={event.event_id}>
              <DefinitionList items={eventItems(event)} />
            </li>
          ))}
        </ol>
      )}
    </Panel>
  );
}

function eventItems(event: PropertyEvent): Definition[] {
  const items: Definition[] = [
    ["Event", event.name],
    ["Peril", PERIL_NAMES[event.peril]],
    ["Date", event.date ? formatDate(event.date) : `Recorded ${formatDateTime(event.imported_at)}`],
  ];
  if (event.parcel_share_inside !== null) {
    items.push(["Parcel inside", `${formatNumber(event.parcel_share_inside * 100, 1)} %`]);
  }
  items.push(["Buildings inside", `${event.buildings_inside} of ${event.buildings_total}`]);
  if (event.intensity !== null) items.push(["Intensity", formatNumber(event.intensity)]);
  return items;
}
