import Fastify from "fastify";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { PoolBusyError } from "../compute/pool-busy-error.js";
import { TaskTimeoutError } from "../compute/task-timeout-error.js";
import { installErrorHandler } from "../http/error-handler.js";
import { checkBoundaryOffThread } from "./check-boundary-off-thread.js";

// The pool itself is tested with real workers (compute/worker-pool.test.ts); here, what its failures become.
const runGeometryTask = vi.fn();

const LOT = {
  type: "Polygon",
  coordinates: [
    [
      [0, 0],
      [0.0003, 0],
      [0.0003, 0.0003],
      [0, 0.0003],
      [0, 0],
    ],
  ],
};

/** The problem a route answers when checking `LOT` fails as the pool fails. */
async function problemWhenThePool(fails: Error) {
  runGeometryTask.mockRejectedValueOnce(fails);
  const app = Fastify();
  installErrorHandler(app);
  app.post("/check", async () => checkBoundaryOffThread(LOT, "parcel_boundary", runGeometryTask));
  const response = await app.inject({ method: "POST", url: "/check", payload: {} });
  await app.close();
  return { status: response.statusCode, retryAfter: response.headers["retry-after"], body: response.json() };
}

describe("checkBoundaryOffThread", () => {
  beforeEach(() => runGeometryTask.mockReset());

  it("sends the boundary packed to a geometry worker and answers its verdict", async () => {
    runGeometryTask.mockResolvedValueOnce({ valid: true, areaM2: 1000 });
    expect(await checkBoundaryOffThread(LOT, "parcel_boundary", runGeometryTask)).toEqual({
      valid: true,
      areaM2: 1000,
    });
    const [name, input] = runGeometryTask.mock.calls[0] ?? [];
    expect(name).toBe("packedBoundaryVerdict");
    expect(input.coordinates).toBeInstanceOf(Float64Array);
  });

  it("turns a check over its time budget into a 422 geometry_too_complex", async () => {
    expect(await problemWhenThePool(new TaskTimeoutError(2000))).toMatchObject({
      status: 422,
      body: {
        code: "geometry_too_complex",
        detail: "parcel_boundary: checking it took more than 2 s; simplify the boundary",
      },
    });
  });

  it("turns a full queue into a 503 geometry_busy with Retry-After", async () => {
    expect(await problemWhenThePool(new PoolBusyError())).toMatchObject({
      status: 503,
      retryAfter: "1",
      body: { code: "geometry_busy" },
    });
  });

  it("refuses a boundary beyond the limits without sending it anywhere", async () => {
    const ring = Array.from({ length: 5001 }, (_, i) => [i / 1e6, (i % 2) / 1e6]);
    await expect(
      checkBoundaryOffThread({ type: "Polygon", coordinates: [ring] }, "boundary", runGeometryTask),
    ).rejects.toMatchObject({
      code: "geometry_limit_exceeded",
    });
    expect(runGeometryTask).not.toHaveBeenCalled();
  });
});
