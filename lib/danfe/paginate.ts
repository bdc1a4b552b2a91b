/**
 * Splits the item rows of a DANFE into pages: the first page has less room (canhoto, recipient,
 * taxes, transport and additional data), the following ones repeat only the header. Pure: row
 * heights in, index ranges out. Every row lands on exactly one page, in order.
 */
export interface PageSlice {
  start: number;
  end: number;
}

export function paginate(rowHeights: readonly number[], firstCapacity: number, nextCapacity: number): PageSlice[] {
  if (firstCapacity <= 0 || nextCapacity <= 0) throw new RangeError('page capacity must be positive');
  const pages: PageSlice[] = [];
  let start = 0;
  let used = 0;
  let capacity = firstCapacity;
  for (let i = 0; i < rowHeights.length; i++) {
    const h = rowHeights[i]!;
    // A row taller than a page still goes alone on its page (never lost, never split).
    if (used + h > capacity && i > start) {
      pages.push({ start, end: i });
      start = i;
      used = 0;
      capacity = nextCapacity;
    }
    used += h;
  }
  pages.push({ start, end: rowHeights.length });
  return pages;
}
