/**
 * A copy of `object` without its `undefined` and empty-string fields, in the same order, so that parts an address
 * lacks are absent rather than `undefined` (in `toEqual`, in JSON, in `"x" in address`).
 */
export function pruned<T extends object>(object: T): T {
  const result = {} as T;
  for (const key in object) {
    const value = object[key];
    if (value !== undefined && value !== "") result[key] = value;
  }
  return result;
}
