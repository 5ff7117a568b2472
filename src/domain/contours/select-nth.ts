/** Order statistics for the detector's per-radius percentiles. */

/** The n-th smallest of values[0 .. count) (Hoare's quickselect, reordering them): the
 * value a sort would put at n, without the sort (a sort per radius cost 2 ms a frame). */
export function selectNth(values: Float32Array, count: number, n: number): number {
  let low = 0;
  let high = count - 1;
  while (low < high) {
    const pivot = values[(low + high) >> 1]!;
    let i = low;
    let j = high;
    while (i <= j) {
      while (values[i]! < pivot) i++;
      while (values[j]! > pivot) j--;
      if (i <= j) {
        const swap = values[i]!;
        values[i++] = values[j]!;
        values[j--] = swap;
      }
    }
    if (n <= j) high = j;
    else if (n >= i) low = i;
    else break;
  }
  return values[n]!;
}
