// Optimal string alignment distance: insertions, deletions, substitutions and swaps of two neighbouring
// letters each count as one typo ("tranlsator" is one swap away from "translator"). Gives up early, with
// limit + 1, once the distance must exceed the limit: the correction index asks many of these per query,
// which is also why the three rows are reused rather than allocated per call.
let rows = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];

export function typoDistance(a: string, b: string, limit = Infinity): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const cols = b.length + 1;
  if (rows[0]!.length < cols) rows = [new Int32Array(cols), new Int32Array(cols), new Int32Array(cols)];
  let [before, previous, current] = rows as [Int32Array, Int32Array, Int32Array];
  for (let j = 0; j < cols; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowBest = i;
    const ai = a.charCodeAt(i - 1);
    for (let j = 1; j < cols; j++) {
      const bj = b.charCodeAt(j - 1);
      let best = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (ai === bj ? 0 : 1));
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj) best = Math.min(best, before[j - 2]! + 1);
      current[j] = best;
      if (best < rowBest) rowBest = best;
    }
    if (rowBest > limit) return limit + 1;
    [before, previous, current] = [previous, current, before];
  }
  return previous[b.length]!;
}
