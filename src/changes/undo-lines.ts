import type { AnyToolDefinition, ToolContext } from '../tools/define-tool.js';
import { parseParams } from '../tools/params.js';

/**
 * The pieces an undo's question is made of (#60.5). A line is plain words (one object, in its
 * forward tool's words) or, for many objects of one kind, a `Bulk`: the count and what happens
 * (`head`), the objects' names in order, and what holds for all of them (`tail`). The question
 * shows as many names as fit its length (undo-review.ts), so an undo of any size asks in a
 * bounded paragraph: a 50-row import's undo was 4,734 characters, "this cannot be undone" 50 times.
 */
export interface Bulk {
  head: string;
  names: readonly string[];
  tail?: string;
}

export type Line = string | Bulk;

/** A question's most characters (an undo of any size). */
export const QUESTION_LIMIT = 1500;

/** More objects of one kind than this in one undo: one line for them, not one each. */
export const BULK = 3;

/** "imp00xlovelace, imp01xturing and 48 more" — the first `shown` names, the rest counted. */
export function renderLine(line: Line, shown: number): string {
  if (typeof line === 'string') return line;
  const names = line.names.slice(0, shown).map(clip);
  const more = line.names.length - names.length;
  const listed = names.length ? `: ${names.join(', ')}${more ? ` and ${more} more` : ''}` : '';
  return `${line.head}${listed}${line.tail ? `; ${line.tail}` : ''}`;
}

/** A name from the site or the journal, kept short. */
const clip = (name: string) => (name.length > 40 ? `${name.slice(0, 39)}…` : name);

export const plural = (n: number, word: string, words = `${word}s`) => `${n} ${n === 1 ? word : words}`;

/** "author 48, editor 2": how many of each value, most first. */
export function tally(values: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]).map(([v, n]) => `${v} ${n}`).join(', ');
}

export const changed = <T>(a: T, b: T) => JSON.stringify(a) !== JSON.stringify(b);

/** The forward call's own words: its review, else its dry run's `would`. */
export async function forward(context: ToolContext, tool: AnyToolDefinition, raw: Record<string, unknown>): Promise<string> {
  const parsed = parseParams(tool, raw);
  if (!parsed.success) throw new Error(`undo-review: ${tool.name} ${JSON.stringify(raw)} does not parse`);
  if (tool.review) return (await tool.review(context, parsed.data as never)).summary;
  const preview = await tool.preview?.(context, parsed.data as never);
  return String(preview?.would ?? `${tool.name} ${JSON.stringify(raw)}`);
}
