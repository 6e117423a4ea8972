import type { AddressImportOptions } from "./address-locator.js";

/**
 * Every column an address import reads a row's address from, in the order they make it: the street address's
 * columns as `--address-column` names them (one, or several comma-separated: `NUMBER,STREET,UNIT`, as OpenAddresses
 * and the National Address Database publish addresses), then the row's own town, state and ZIP code columns.
 */
export function addressColumnsOf(options: AddressImportOptions): string[] {
  const { cityColumn, stateColumn, postcodeColumn } = options;
  return [
    ...streetColumnsOf(options),
    ...[cityColumn, stateColumn, postcodeColumn].filter((column) => column !== undefined),
  ];
}

/**
 * How to read a row's one-line address: its street address column as it is, or its cells put together as a person
 * writes an address (`123 MAIN ST 4B, SPRINGFIELD, MA 01101`), empty ones left out, for the normalizer to read as
 * it reads any other line. Undefined when the row has no street address. Made once per import: it runs for every row.
 */
export function addressReader(
  options: AddressImportOptions,
): (properties: Record<string, unknown>) => string | undefined {
  const street = streetColumnsOf(options);
  const { cityColumn, stateColumn, postcodeColumn } = options;
  const [only] = street;
  if (street.length === 1 && only !== undefined && [cityColumn, stateColumn, postcodeColumn].every((c) => !c)) {
    return (properties) => {
      const text = properties[only];
      return typeof text === "string" && text.trim() !== "" ? text : undefined;
    };
  }
  const region = [stateColumn, postcodeColumn].filter((column) => column !== undefined);
  return (properties) => {
    const line = joined(street, properties, " ");
    if (line === "") return undefined;
    const city = cityColumn === undefined ? "" : cellText(properties[cityColumn]);
    const stateAndZip = joined(region, properties, " ");
    return [line, city, stateAndZip].filter((part) => part !== "").join(", ");
  };
}

/** The non-empty cells of `columns`, separated by `separator`. */
function joined(columns: readonly string[], properties: Record<string, unknown>, separator: string): string {
  let text = "";
  for (const column of columns) {
    const cell = cellText(properties[column]);
    if (cell !== "") text = text === "" ? cell : `${text}${separator}${cell}`;
  }
  return text;
}

function streetColumnsOf({ addressColumn }: AddressImportOptions): string[] {
  return addressColumn
    .split(",")
    .map((column) => column.trim())
    .filter((column) => column !== "");
}

/** A cell as text: a string trimmed, a number as written; anything else is no text. */
function cellText(cell: unknown): string {
  if (typeof cell === "string") return cell.trim();
  return typeof cell === "number" && Number.isFinite(cell) ? String(cell) : "";
}
