import { describe, expect, it } from "vitest";
import type { GeoSource } from "../geo/store/spatial-filter.js";
import { readOnce, sharesReads, withSharedReads } from "./shared-reads.js";

const plain = { dialect: "sqlite" } as unknown as GeoSource;

describe("readOnce", () => {
  it("reads once per key through a shared source, every caller getting the same answer", async () => {
    const source = withSharedReads(plain);
    let reads = 0;
    const read = async () => {
      reads += 1;
      return [reads];
    };
    const [a, b] = await Promise.all([readOnce(source, "lot 7", read), readOnce(source, "lot 7", read)]);
    expect(a).toBe(b);
    expect(await readOnce(source, "lot 8", read)).toEqual([2]);
    expect(reads).toBe(2);
    expect(sharesReads(source)).toBe(true);
  });

  it("reads every time through a plain source, so that nothing outlives one unit of work", async () => {
    let reads = 0;
    const read = async () => ++reads;
    expect(await readOnce(plain, "lot 7", read)).toBe(1);
    expect(await readOnce(plain, "lot 7", read)).toBe(2);
    expect(sharesReads(plain)).toBe(false);
  });

  it("shares a failed read with every caller of its key", async () => {
    const source = withSharedReads(plain);
    let reads = 0;
    const read = async () => {
      reads += 1;
      throw new Error("database gone");
    };
    await expect(readOnce(source, "datasets", read)).rejects.toThrow("database gone");
    await expect(readOnce(source, "datasets", read)).rejects.toThrow("database gone");
    expect(reads).toBe(1);
  });
});
