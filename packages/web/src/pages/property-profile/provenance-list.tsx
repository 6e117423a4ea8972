import type { Provenance } from "@lotline/contract";
import { formatDateTime } from "../../format/format-date-time";

/** Where a product's values came from: each dataset with its provider, licence and vintage. */
export function ProvenanceList({ provenance, computedAt }: { provenance: readonly Provenance[]; computedAt?: string }) {
  // A product lists a dataset once per use (each building's, the parcel's): say each source once.
  const lines = [...new Set(provenance.map(describe))];
  if (lines.length === 0 && computedAt === undefined) return null;
  return (
    <div class="provenance">
      {lines.length > 0 && (
        <>
          <p class="provenance__title">Sources</p>
          <ul class="provenance__items">
            {lines.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </>
      )}
      {computedAt && <p class="provenance__computed">Computed {formatDateTime(computedAt)}.</p>}
    </div>
  );
}

function describe(source: Provenance): string {
  const parts = [source.dataset];
  if (source.provider) parts.push(`provider: ${source.provider}`);
  if (source.license) parts.push(`licence: ${source.license}`);
  if (source.vintage) parts.push(`vintage: ${source.vintage}`);
  if (source.imported_at) parts.push(`imported ${formatDateTime(source.imported_at)}`);
  const text = parts.join("; ");
  return source.note ? `${text}. Note: ${source.note}.` : `${text}.`;
}
