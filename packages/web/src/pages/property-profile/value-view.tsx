import { formatDateTime } from "../../format/format-date-time";
import { formatNumber } from "../../format/format-number";
import { labelFromKey } from "../../format/label-from-key";
import { DefinitionList } from "../../ui/definition-list";

/** Keys never shown as values: geometry (drawn on the map instead) and what the provenance line says. */
const HIDDEN_KEYS = new Set(["boundary", "footprint", "geometry", "coordinates", "provenance", "computed_at"]);

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/**
 * Any value of a product, readably: numbers with separators, yes and no, timestamps as dates, a point as
 * `lat, lon`, lists as lists, and objects as definition lists labelled from their keys (nested as deep as they go).
 */
export function ValueView({ value, name }: { value: unknown; name?: string }) {
  if (value === null || value === undefined || value === "") return <span class="muted">none</span>;
  if (typeof value === "boolean") return <>{value ? "Yes" : "No"}</>;
  if (typeof value === "number") return <>{formatValueNumber(value, name)}</>;
  if (typeof value === "string") return <>{ISO_TIMESTAMP.test(value) ? formatDateTime(value) : value}</>;
  if (Array.isArray(value)) return <ListView items={value} />;
  if (typeof value === "object") return <ObjectView value={value as Record<string, unknown>} />;
  return <>{String(value)}</>;
}

/** An object's shown entries as a definition list. */
export function ObjectView({ value, omit = [] }: { value: Record<string, unknown>; omit?: readonly string[] }) {
  const { lat, lon } = value;
  if (typeof lat === "number" && typeof lon === "number" && Object.keys(value).length === 2) {
    return <>{`${lat.toFixed(6)}, ${lon.toFixed(6)}`}</>;
  }
  const entries = Object.entries(value).filter(([key]) => !HIDDEN_KEYS.has(key) && !omit.includes(key));
  if (entries.length === 0) return <span class="muted">none</span>;
  // Plain values first, then the nested lists, so a product's summary is not buried under its details.
  const ordered = [...entries.filter(([, item]) => !isNested(item)), ...entries.filter(([, item]) => isNested(item))];
  return (
    <DefinitionList
      items={ordered.map(([key, item]) => [
        labelFromKey(key),
        <ValueView value={item} name={key} />,
        { wide: isNested(item) },
      ])}
    />
  );
}

/** Whether a value is shown as a list or definitions of its own (not a point, not a list of plain values). */
function isNested(value: unknown): boolean {
  if (Array.isArray(value)) return value.some((item) => typeof item === "object" && item !== null);
  if (typeof value !== "object" || value === null) return false;
  const keys = Object.keys(value);
  return !(keys.length === 2 && keys.includes("lat") && keys.includes("lon"));
}

function ListView({ items }: { items: readonly unknown[] }) {
  if (items.length === 0) return <span class="muted">none</span>;
  if (items.every((item) => typeof item !== "object" || item === null)) {
    // Plain numbers in a list are most often a position: keep their precision.
    return <>{items.map((item) => (typeof item === "number" ? formatNumber(item, 6) : String(item))).join(", ")}</>;
  }
  return (
    <ol class="value-list">
      {items.map((item, index) => (
        // The items have no identity of their own: their place in the product's answer is it.
        <li key={index}>
          <ValueView value={item} />
        </li>
      ))}
    </ol>
  );
}

/** A share (a key naming a coverage or ratio, between 0 and 1) as a percentage; any other number as it is. */
function formatValueNumber(value: number, name: string | undefined): string {
  if (name !== undefined && /coverage|ratio|share/.test(name) && value >= 0 && value <= 1) {
    return `${formatNumber(value * 100, 1)} %`;
  }
  return formatNumber(value);
}
