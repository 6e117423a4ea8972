/**
 * A binary min-heap of integer items keyed by numbers, in two plain arrays: the ball tree pushes and pops
 * thousands of nodes per look-up, and objects per entry would cost more than the search itself.
 */
export class MinHeap {
  private readonly keys: number[] = [];
  private readonly items: number[] = [];

  get size(): number {
    return this.items.length;
  }

  /** The smallest key held; `Infinity` when empty. */
  peekKey(): number {
    return this.keys[0] ?? Number.POSITIVE_INFINITY;
  }

  push(key: number, item: number): void {
    let i = this.items.length;
    this.keys.push(key);
    this.items.push(item);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((this.keys[parent] ?? 0) <= key) break;
      this.move(parent, i);
      i = parent;
    }
    this.keys[i] = key;
    this.items[i] = item;
  }

  /** Removes and returns the item with the smallest key; `undefined` when empty. */
  pop(): number | undefined {
    const top = this.items[0];
    const lastKey = this.keys.pop();
    const lastItem = this.items.pop();
    const count = this.items.length;
    if (count === 0 || lastKey === undefined || lastItem === undefined) return top;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= count) break;
      if (child + 1 < count && (this.keys[child + 1] ?? 0) < (this.keys[child] ?? 0)) child += 1;
      if ((this.keys[child] ?? 0) >= lastKey) break;
      this.move(child, i);
      i = child;
    }
    this.keys[i] = lastKey;
    this.items[i] = lastItem;
    return top;
  }

  private move(from: number, to: number): void {
    this.keys[to] = this.keys[from] ?? 0;
    this.items[to] = this.items[from] ?? 0;
  }
}
