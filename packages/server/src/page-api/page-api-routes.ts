import type { FastifyInstance } from "fastify";
import { iframeGuard } from "../auth/iframe/iframe-guard.js";
import type { Services } from "../services.js";
import { registerPageAddressesRoute } from "./addresses/page-addresses-route.js";
import { registerBoundaryCheckRoute } from "./boundaries/boundary-check-route.js";
import { registerFootprintsRoute } from "./footprints/footprints-route.js";
import { registerLotsRoute } from "./lots/lots-route.js";
import { registerMapContextRoute } from "./map/map-context-route.js";
import { registerPageOrdersRoutes } from "./orders/page-orders-routes.js";
import { registerPagePropertiesRoute } from "./properties/page-properties-route.js";
import { registerSessionRoute } from "./session/session-route.js";
import { registerPageWebhookDeliveryRoute } from "./webhook-deliveries/page-webhook-delivery-route.js";

/** The page API under `/embed/api`: what the embeddable pages call, every route behind the iframe guard. */
export async function registerPageApi(app: FastifyInstance, services: Services): Promise<void> {
  await app.register(
    async (api) => {
      api.decorateRequest("session", null as never);
      api.addHook("onRequest", iframeGuard(services));
      registerSessionRoute(api, services);
      registerPageAddressesRoute(api, services);
      registerLotsRoute(api, services);
      registerMapContextRoute(api, services);
      registerBoundaryCheckRoute(api, services);
      registerPageOrdersRoutes(api, services);
      registerPagePropertiesRoute(api, services);
      registerFootprintsRoute(api, services);
      registerPageWebhookDeliveryRoute(api, services);
    },
    { prefix: "/embed/api" },
  );
}
