// A worker script for the pool's tests: tasks that answer, spin until released or forever, throw, or exit.
import { parentPort } from "node:worker_threads";

const tasks = {
  echo: (input) => input,
  /** Spins (a synchronous computation, as re-noding is) until the main thread sets the shared flag. */
  spinUntilReleased: (flag) => {
    const view = new Int32Array(flag);
    while (Atomics.load(view, 0) === 0) {
      // busy, as heavy geometry is
    }
    return "released";
  },
  spinForever: () => {
    for (;;) {
      // never answers: only terminating the worker stops it
    }
  },
  throw: () => {
    throw new Error("the task failed");
  },
  exit: () => process.exit(3),
};

parentPort.on("message", ({ name, input }) => {
  try {
    parentPort.postMessage({ ok: true, result: tasks[name](input) });
  } catch (error) {
    parentPort.postMessage({ ok: false, error: error.message });
  }
});

parentPort.postMessage({ ready: true });
