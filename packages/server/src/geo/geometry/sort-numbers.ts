/**
 * `numbers` sorted ascending in place, by insertion: for the few cuts of an edge or candidates of a footprint,
 * sorted millions of times in an import, where `sort` would copy each array it sorts.
 */
export function sortNumbers(numbers: number[]): void {
  for (let i = 1; i < numbers.length; i++) {
    const value = numbers[i] as number;
    let j = i - 1;
    for (; j >= 0 && (numbers[j] as number) > value; j--) numbers[j + 1] = numbers[j] as number;
    numbers[j + 1] = value;
  }
}
