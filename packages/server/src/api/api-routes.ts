import type { FastifyInstance } from "fastify";
import { bearerGuard } from "../auth/bearer/bearer-guard.js";
import type { Services } from "../services.js";
import { registerAddressesRoute } from "./addresses/addresses-route.js";
import { registerCustomFieldsRoute } from "./custom-fields/custom-fields-route.js";
import { registerEventsRoutes } from "./events/events-routes.js";
import { registerMeRoute } from "./me/me-route.js";
import { registerMonitoringRoutes } from "./monitoring/monitoring-routes.js";
import { registerOrderBatchesRoutes } from "./order-batches/order-batches-routes.js";
import { registerOrdersRoutes } from "./orders/orders-routes.js";
import { registerProductMatricesRoute } from "./product-matrices/product-matrices-route.js";
import { registerPropertiesRoutes } from "./properties/properties-routes.js";
import { registerWebhookDeliveriesRoutes } from "./webhook-deliveries/webhook-deliveries-routes.js";

/** The data API under `/v1`, every route behind the bearer guard. */
export async function registerApiRoutes(app: FastifyInstance, services: Services): Promise<void> {
  await app.register(
    async (api) => {
      api.decorateRequest("caller", null as never);
      api.addHook("onRequest", bearerGuard(services));
      registerMeRoute(api);
      registerAddressesRoute(api, services);
      registerProductMatricesRoute(api, services);
      registerCustomFieldsRoute(api, services);
      registerOrdersRoutes(api, services);
      await registerOrderBatchesRoutes(api, services);
      registerPropertiesRoutes(api, services);
      registerWebhookDeliveriesRoutes(api, services);
      registerMonitoringRoutes(api, services);
      registerEventsRoutes(api, services);
    },
    { prefix: "/v1" },
  );
}
