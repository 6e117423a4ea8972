import { Problem, ProductMatrixList } from "@lotline/contract";
import type { FastifyInstance } from "fastify";
import type { Services } from "../../services.js";
import { listProductMatrices } from "../../tenancy/product-matrices.js";

/** `GET /v1/product-matrices`: the caller's organization's matrices, the default first. */
export function registerProductMatricesRoute(app: FastifyInstance, { db }: Services): void {
  app.get(
    "/product-matrices",
    {
      schema: {
        summary: "List product matrices",
        tags: ["api"],
        security: [{ bearer: [] }],
        response: { 200: ProductMatrixList, "4xx": Problem },
      },
    },
    async (request) => ({ data: await listProductMatrices(db, request.caller.orgId) }),
  );
}
