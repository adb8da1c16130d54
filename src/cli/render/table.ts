import Table from 'cli-table3';

/** Columns two spaces apart, a rule under the head, no box: reads like `ls -l`, copies cleanly. */
const CHARS = {
  top: '', 'top-mid': '', 'top-left': '', 'top-right': '',
  bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '',
  left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '', middle: '  ',
};
const GAP = 2;
const MIN_COLUMN = 6;

/** The terminal's width, or 160 when the output is not a terminal (a file, a pipe). */
export function terminalWidth(stream: { columns?: number } = process.stdout): number {
  return stream.columns && stream.columns > 20 ? stream.columns : 160;
}

/**
 * An aligned table no wider than `width`: the widest columns give way first (cli-table3 cuts
 * their cells with "…"), so ids and names stay whole when a long text column is too wide.
 */
export function renderTable(head: string[], rows: string[][], width = terminalWidth()): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const budget = width - GAP * (head.length - 1);
  while (widths.reduce((a, b) => a + b, 0) > budget) {
    const widest = widths.indexOf(Math.max(...widths));
    if ((widths[widest] ?? 0) <= MIN_COLUMN) break;
    widths[widest] = (widths[widest] ?? 0) - 1;
  }
  const table = new Table({
    head: head,
    chars: CHARS,
    colWidths: widths,
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0, compact: true },
  });
  table.push(widths.map((w) => '─'.repeat(w)));
  for (const row of rows) table.push(row);
  // cli-table3 pads the last column too: trailing spaces only get in the way of copying.
  return table
    .toString()
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n');
}
