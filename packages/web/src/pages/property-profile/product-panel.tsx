import { Panel } from "../../ui/panel";
import type { ProductData } from "./product-data";
import { ProvenanceList } from "./provenance-list";
import { ObjectView } from "./value-view";

/** One data product of the property: its values and their sources; a note when no order computed it. */
export function ProductPanel({ title, data }: { title: string; data: ProductData | null }) {
  return (
    <Panel title={title}>
      {data ? (
        <>
          <ObjectView value={data} />
          <ProvenanceList provenance={data.provenance ?? []} computedAt={data.computed_at} />
        </>
      ) : (
        <p class="muted">Not computed for this property: no order of it included this product.</p>
      )}
    </Panel>
  );
}
