import { addressLine } from "../../packages/server/src/geo/store/address-line.js";
import type { Services } from "../../packages/server/src/services.js";

/** An address of the generated neighbourhood, with the parcel it lies on. */
export interface DemoAddress {
  /** The whole address as the service writes it, e.g. `114 ADAMS AVE, FAIRVIEW, IA 50201`. */
  display: string;
  parcelId: number;
}

/**
 * The `index`-th address (in import order) that is a whole lot, not a unit, and whose parcel holds at least one
 * building, so every page has a parcel to draw and a footprint to select.
 */
export async function demoAddress({ db }: Services, index = 0): Promise<DemoAddress> {
  const row = await db
    .selectFrom("addresses")
    .selectAll()
    .where("unit", "is", null)
    .where("parcel_id", "is not", null)
    .where(({ exists, selectFrom }) =>
      exists(selectFrom("buildings").select("building_id").whereRef("buildings.parcel_id", "=", "addresses.parcel_id")),
    )
    .orderBy("address_id")
    .offset(index)
    .limit(1)
    .executeTakeFirstOrThrow();
  return { display: addressLine(row), parcelId: Number(row.parcel_id) };
}
