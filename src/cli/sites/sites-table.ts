/** A plain text table: columns padded to their widest cell; the last column is cut at 100 characters. */
export function renderTable(head: string[], rows: string[][]): string {
  const last = head.length - 1;
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i < last ? cell.padEnd(widths[i] ?? 0) : cell.length > 100 ? `${cell.slice(0, 99)}…` : cell))
      .join('  ')
      .trimEnd();
  return [line(head), ...rows.map(line)].join('\n');
}
