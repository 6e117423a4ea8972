import type { Provenance } from "@lotline/contract";
import { labelFromKey } from "../../format/label-from-key";
import { DefinitionList } from "../../ui/definition-list";
import { Panel } from "../../ui/panel";
import type { ProductData } from "./product-data";
import { ProvenanceList } from "./provenance-list";
import { ObjectView } from "./value-view";

/** The fields of a layer's result that say where it came from rather than what it found. */
const PROVENANCE_KEYS = ["dataset", "provider", "license", "vintage", "imported_at", "note"] as const;

const MATCHED_AGAINST: Readonly<Record<string, string>> = {
  user_boundary: "the boundary drawn with the order",
  parcel: "the parcel",
  point: "the property's location (no parcel)",
};

/** What each imported layer (flood zones, fire stations, …) says about the property, each with its own source. */
export function ThirdPartyPanel({ data }: { data: ProductData | null }) {
  const layers = Array.isArray(data?.layers) ? (data.layers as Array<Record<string, unknown>>) : [];
  return (
    <Panel title="Third-party data">
      {data === null && <p class="muted">Not computed for this property: no order of it included this product.</p>}
      {data !== null && typeof data.matched_against === "string" && (
        <DefinitionList
          items={[["Matched against", MATCHED_AGAINST[data.matched_against] ?? labelFromKey(data.matched_against)]]}
        />
      )}
      {data !== null && layers.length === 0 && <p class="muted">No layers are imported.</p>}
      {layers.map((layer) => (
        <section class="layer" key={String(layer.dataset)}>
          <h3 class="layer__title">{String(layer.dataset ?? "Layer")}</h3>
          <ObjectView value={layer} omit={PROVENANCE_KEYS} />
          <ProvenanceList provenance={[provenanceOf(layer)]} />
        </section>
      ))}
      {data?.computed_at && <ProvenanceList provenance={[]} computedAt={data.computed_at} />}
    </Panel>
  );
}

function provenanceOf(layer: Record<string, unknown>): Provenance {
  const text = (key: string) => (typeof layer[key] === "string" ? (layer[key] as string) : null);
  const note = text("note");
  return {
    dataset: text("dataset") ?? "Layer",
    provider: text("provider"),
    license: text("license"),
    vintage: text("vintage"),
    imported_at: text("imported_at"),
    ...(note === null ? {} : { note }),
  };
}
