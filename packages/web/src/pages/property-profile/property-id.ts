/**
 * The property id in the page's path (`/property-profile/<property_id>`), or undefined when the last segment is not
 * a positive whole number.
 *
 * @example propertyIdFromPath("/property-profile/42") // 42
 */
export function propertyIdFromPath(pathname: string): number | undefined {
  const segment =
    pathname
      .split("/")
      .filter((part) => part !== "")
      .at(-1) ?? "";
  if (!/^\d{1,15}$/.test(segment)) return undefined;
  const id = Number(segment);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}
