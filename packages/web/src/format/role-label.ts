import type { BuildingRole } from "@lotline/contract";

/** A building role in words. */
export const ROLE_LABELS: Readonly<Record<BuildingRole, string>> = {
  primary_dwelling: "primary dwelling",
  other_structure: "other structure",
};

/** The roles a building can be given, in the order a list offers them. */
export const ROLES = Object.keys(ROLE_LABELS) as BuildingRole[];
