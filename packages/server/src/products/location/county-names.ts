/** Alaska's county equivalents that are not boroughs, by FIPS code (Census Bureau, 2017). */
const ALASKA: Readonly<Record<string, string>> = {
  "02016": "Census Area",
  "02050": "Census Area",
  "02070": "Census Area",
  "02105": "Census Area",
  "02158": "Census Area",
  "02180": "Census Area",
  "02198": "Census Area",
  "02240": "Census Area",
  "02261": "Census Area",
  "02290": "Census Area",
  "02020": "Municipality",
  "02230": "Municipality",
  "02110": "City and Borough",
  "02220": "City and Borough",
  "02275": "City and Borough",
  "02282": "City and Borough",
};

/** Independent cities outside Virginia, whose county equivalents are named "… city" (Carson City's name has it). */
const INDEPENDENT_CITIES = new Set(["24510", "29510"]);

/**
 * A county (or equivalent)'s full name as the Census Bureau writes it, from us-atlas's bare name and FIPS code:
 * "Middlesex" → "Middlesex County", a Louisiana parish, an Alaska borough or census area, a Puerto Rico municipio,
 * an independent city ("Richmond city"). The District of Columbia and the smaller territories keep their names.
 *
 * @example
 * countyName("25017", "Middlesex"); //= "Middlesex County"
 */
export function countyName(fips: string, name: string): string {
  const state = fips.slice(0, 2);
  if (state === "02") return `${name} ${ALASKA[fips] ?? "Borough"}`;
  if (state === "22") return `${name} Parish`;
  if (state === "72") return `${name} Municipio`;
  if ((state === "51" && Number(fips.slice(2)) >= 500) || INDEPENDENT_CITIES.has(fips)) return `${name} city`;
  if (["11", "60", "66", "69", "78"].includes(state) || fips === "32510") return name;
  return `${name} County`;
}
