import type { PropertyVersionSummary, VersionDataset } from "@lotline/contract";
import { useEffect, useState } from "preact/hooks";
import type { ApiClient } from "../../api/api-client";
import { getPropertyVersions } from "../../api/get-property-versions";
import { formatDateTime } from "../../format/format-date-time";
import { type Definition, DefinitionList } from "../../ui/definition-list";
import { Panel } from "../../ui/panel";

const CAUSES = { order: "An order completed", data_change: "Imported data changed" } as const;

/**
 * The versions of the property's data, newest first: when each was made, why (an order, or new imported data such
 * as a redrawn flood map) and the datasets, with their vintages, it came from.
 */
export function VersionsPanel({ api, propertyId, current }: { api: ApiClient; propertyId: number; current: number }) {
  const [versions, setVersions] = useState<readonly PropertyVersionSummary[] | "failed" | undefined>(undefined);
  useEffect(() => {
    let stale = false;
    getPropertyVersions(api, propertyId).then(
      (list) => !stale && setVersions(list.data),
      () => !stale && setVersions("failed"),
    );
    return () => {
      stale = true;
    };
    // `current` changes when the record does: its versions are read again.
  }, [api, propertyId, current]);
  return (
    <Panel title="Data versions">
      {versions === undefined && <p class="muted">Loading versions…</p>}
      {versions === "failed" && <p class="muted">The versions could not be loaded.</p>}
      {Array.isArray(versions) && versions.length === 0 && <p class="muted">No data yet: no order has completed.</p>}
      {Array.isArray(versions) && versions.length > 0 && (
        <ol class="orders">
          {versions.map((version) => (
            <li class="orders__item" key={version.version}>
              <DefinitionList items={versionItems(version)} />
            </li>
          ))}
        </ol>
      )}
    </Panel>
  );
}

function versionItems(version: PropertyVersionSummary): Definition[] {
  return [
    ["Version", String(version.version)],
    ["Made", formatDateTime(version.created_at)],
    ["Because", CAUSES[version.cause]],
    ["From", version.datasets.map(datasetLabel).join("; ") || "—"],
  ];
}

function datasetLabel(dataset: VersionDataset): string {
  return dataset.vintage ? `${dataset.dataset} (${dataset.vintage})` : dataset.dataset;
}
