import type { LightMyRequestResponse } from "fastify";
import { issueIframeToken } from "../auth/tokens/iframe-token.js";
import { buildingsOfParcel } from "../geo/queries/buildings-of-parcel.js";
import { parcelById } from "../geo/queries/parcel-by-id.js";
import { addressLine } from "../geo/store/address-line.js";
import type { Building, Parcel } from "../geo/store/geo-rows.js";
import type { TestApp } from "../test/test-app.js";

// Shared by the page API tests beside the routes: how a page calls the API, and a lot of the demo to call it about.

export type PageCall = (
  method: "GET" | "POST",
  url: string,
  options?: { payload?: unknown; token?: string | null; headers?: Record<string, string> },
) => Promise<LightMyRequestResponse>;

/** An iframe JWT for the organization, as `POST /auth/signin/integration` issues it. */
export async function iframeTokenFor(test: TestApp, orgId: string): Promise<string> {
  return (await issueIframeToken(test.services.keys, test.services.config, orgId)).token;
}

/**
 * Calls the page API as a page does, with `Authorization: Bearer <iframe JWT>` (`defaultToken` unless the call
 * names another; `null` sends none).
 */
export function pageCaller(test: TestApp, defaultToken: string): PageCall {
  return (method, url, { payload, token = defaultToken, headers = {} } = {}) =>
    test.app.inject({
      method,
      url,
      headers: { ...(token === null ? {} : { authorization: `Bearer ${token}` }), ...headers },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
}

/** A parcel of the loaded demo with at least `buildings` buildings and an address, and its buildings. */
export async function demoLotWithBuildings(
  test: TestApp,
  buildings = 2,
  skip = 0,
): Promise<{ parcel: Parcel; buildings: Building[]; addresses: string[] }> {
  const { db } = test.services;
  const rows = await db
    .selectFrom("buildings")
    .select("parcel_id")
    .where("parcel_id", "is not", null)
    .where("parcel_id", "in", (eb) => eb.selectFrom("addresses").select("parcel_id").where("unit", "is", null))
    .groupBy("parcel_id")
    .having((eb) => eb.fn.countAll(), ">=", buildings)
    .orderBy("parcel_id")
    .execute();
  const parcelId = rows[skip]?.parcel_id;
  if (parcelId === undefined || parcelId === null) throw new Error(`the demo has no lot with ${buildings} buildings`);
  const parcel = await parcelById(test.services.database, parcelId);
  if (!parcel) throw new Error(`no parcel ${parcelId}`);
  const addresses = await db.selectFrom("addresses").selectAll().where("parcel_id", "=", parcelId).execute();
  return {
    parcel,
    buildings: await buildingsOfParcel(test.services.database, parcelId),
    addresses: addresses.map((row) => addressLine(row)),
  };
}
