import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { PoolBusyError } from "./pool-busy-error.js";
import { TaskTimeoutError } from "./task-timeout-error.js";
import { WorkerPool, type WorkerPoolOptions } from "./worker-pool.js";

const FIXTURE = new URL("./pool-worker.fixture.mjs", import.meta.url);
const pools: WorkerPool[] = [];

function poolOf(options: Partial<WorkerPoolOptions> = {}): WorkerPool {
  const pool = new WorkerPool(FIXTURE, { size: 2, queueLimit: 16, budgetMs: 10_000, ...options });
  pools.push(pool);
  return pool;
}

afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
});

describe("WorkerPool", () => {
  it("runs tasks on its workers and answers their results, more tasks than workers waiting their turn", async () => {
    const pool = poolOf();
    const inputs = Array.from({ length: 10 }, (_, i) => ({ i, ring: [[i, i]] }));
    expect(await Promise.all(inputs.map((input) => pool.run("echo", input)))).toEqual(inputs);
  });

  it("keeps the event loop free: an HTTP request is answered while a worker computes", async () => {
    const pool = poolOf({ size: 1 });
    const flag = new SharedArrayBuffer(4);
    const order: string[] = [];
    const computing = pool.run("spinUntilReleased", flag).then((result) => order.push(`task ${result}`));
    const server = createServer((_, response) => response.end("ok"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const answered = await fetch(`http://127.0.0.1:${port}/healthz`);
      order.push(`http ${await answered.text()}`);
    } finally {
      server.close();
    }
    Atomics.store(new Int32Array(flag), 0, 1);
    await computing;
    expect(order).toEqual(["http ok", "task released"]);
  });

  it("stops a task over its budget, and goes on with a new worker", async () => {
    const pool = poolOf({ size: 1, budgetMs: 200 });
    const late = pool.run("spinForever", null);
    const next = pool.run("echo", "after");
    await expect(late).rejects.toBeInstanceOf(TaskTimeoutError);
    expect(await next).toBe("after");
  });

  it("refuses a task at once when the queue is full", async () => {
    const pool = poolOf({ size: 1, queueLimit: 2 });
    expect(await pool.run("echo", "warm")).toBe("warm");
    const flag = new SharedArrayBuffer(4);
    const running = pool.run("spinUntilReleased", flag);
    const waiting = [pool.run("echo", 1), pool.run("echo", 2)];
    await expect(pool.run("echo", 3)).rejects.toBeInstanceOf(PoolBusyError);
    Atomics.store(new Int32Array(flag), 0, 1);
    expect(await running).toBe("released");
    expect(await Promise.all(waiting)).toEqual([1, 2]);
  });

  it("fails the waiting tasks when a worker cannot start, instead of starting it again and again", async () => {
    const pool = new WorkerPool(new URL("./no-such-worker.mjs", import.meta.url), {
      size: 1,
      queueLimit: 8,
      budgetMs: 1000,
    });
    pools.push(pool);
    const outcomes = await Promise.allSettled([pool.run("echo", 1), pool.run("echo", 2)]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["rejected", "rejected"]);
  });

  it("fails a task that throws or whose worker exits, and carries on", async () => {
    const pool = poolOf({ size: 1 });
    await expect(pool.run("throw", null)).rejects.toThrow("the task failed");
    await expect(pool.run("exit", null)).rejects.toThrow(/exited with code 3/);
    expect(await pool.run("echo", "still here")).toBe("still here");
  });

  it("ends its workers when closed: tasks running or waiting fail, and no new one is taken", async () => {
    const pool = poolOf({ size: 1 });
    const outcomes = Promise.allSettled([pool.run("spinForever", null), pool.run("echo", "never")]);
    await pool.close();
    for (const outcome of await outcomes) {
      expect(outcome.status).toBe("rejected");
      if (outcome.status === "rejected") expect(String(outcome.reason)).toMatch(/closed/);
    }
    await expect(pool.run("echo", "late")).rejects.toThrow(/closed/);
  });
});
