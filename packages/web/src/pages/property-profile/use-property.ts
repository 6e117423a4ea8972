import type { PropertyRecord } from "@lotline/contract";
import { useEffect, useState } from "preact/hooks";
import type { ApiClient } from "../../api/api-client";
import { ApiError } from "../../api/api-error";
import { getProperty } from "../../api/get-property";

export type PropertyState =
  | { status: "loading" }
  | { status: "ready"; record: PropertyRecord }
  | { status: "not-found" }
  | { status: "error"; message: string };

/** The property record (`GET /embed/api/properties/{id}`); `not-found` for a 404 (another organization's, too). */
export function useProperty(api: ApiClient, propertyId: number): PropertyState {
  const [state, setState] = useState<PropertyState>({ status: "loading" });
  useEffect(() => {
    let stale = false;
    getProperty(api, propertyId).then(
      (record) => {
        if (!stale) setState({ status: "ready", record });
      },
      (error: unknown) => {
        if (stale) return;
        if (error instanceof ApiError && error.status === 404) setState({ status: "not-found" });
        else setState({ status: "error", message: error instanceof Error ? error.message : String(error) });
      },
    );
    return () => {
      stale = true;
    };
  }, [api, propertyId]);
  return state;
}
