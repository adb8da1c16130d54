import { readFile, writeFile } from 'node:fs/promises';

/**
 * Puts `section` (which starts with `begin` and ends with `end`) into the markdown `file` in place
 * of the one between those markers, or at its end; prints it. BENCHMARKS.md's sections written by
 * their own commands (`bench:backends`, `bench:undo`) are kept this way by each other and by
 * `npm run bench`.
 */
export async function replaceSection(file: string, begin: string, end: string, section: string): Promise<void> {
  const text = await readFile(file, 'utf8');
  const start = text.indexOf(begin);
  const stop = text.indexOf(end);
  const next =
    start >= 0 && stop > start ? text.slice(0, start) + section + text.slice(stop + end.length) : `${text.trimEnd()}\n\n${section}\n`;
  await writeFile(file, next);
  console.log(section);
}
