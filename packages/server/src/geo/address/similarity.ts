/**
 * How alike two names are, 0..1: one minus their optimal-string-alignment distance (insertions, deletions,
 * substitutions and swaps of neighbours, each costing 1) over the longer length, spaces ignored
 * (`O BRIEN` ~ `OBRIEN` = 1, `GORE` ~ `GOER` = 0.75, `SCIARAPPA` ~ `SCIARAPA` ≈ 0.89).
 */
export function similarity(a: string, b: string): number {
  const x = a.replaceAll(" ", "");
  const y = b.replaceAll(" ", "");
  const longest = Math.max(x.length, y.length);
  return longest === 0 ? 1 : 1 - distance(x, y) / longest;
}

/** Optimal string alignment distance (restricted Damerau–Levenshtein), three rows of memory. */
function distance(a: string, b: string): number {
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  let current = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i += 1) {
    current[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, (before[j - 2] ?? 0) + 1);
      current[j] = best;
    }
    [before, previous, current] = [previous, current, before];
  }
  return previous[b.length] ?? 0;
}
