import type { Attribution } from "@lotline/contract";

/** The sources of what the map shows, each becoming one attribution line. */
export interface MapAttributions {
  /** The subject parcel's dataset. */
  parcel?: Attribution | null;
  /** The datasets of the context (neighbouring parcels and buildings, hazard layers). */
  context?: readonly Attribution[];
}

/**
 * The attribution lines for the map, as HTML-escaped text (MapLibre inserts attributions as HTML): the parcel's
 * dataset first as `Parcels: <dataset> — <provider> (<licence>)`, then each other dataset once, in the same form
 * without the prefix. Missing provider or licence is left out.
 *
 * @example attributionLines({ parcel: { dataset: "Assessor parcels", provider: "City of Cambridge", license: "PDDL" } })
 * // ["Parcels: Assessor parcels — City of Cambridge (PDDL)"]
 */
export function attributionLines({ parcel, context = [] }: MapAttributions): string[] {
  const lines: string[] = [];
  const seen = new Set<string>();
  if (parcel) {
    lines.push(`Parcels: ${describe(parcel)}`);
    seen.add(parcel.dataset);
  }
  for (const attribution of context) {
    if (seen.has(attribution.dataset)) continue;
    seen.add(attribution.dataset);
    lines.push(describe(attribution));
  }
  return lines.map(escapeHtml);
}

function describe({ dataset, provider, license }: Attribution): string {
  return `${dataset}${provider ? ` — ${provider}` : ""}${license ? ` (${license})` : ""}`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
