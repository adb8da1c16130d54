import {
  assignOutput,
  deletedTermOutput,
  previewOutput,
  undoOutput,
} from '../../tools/output-schemas.js';
import type { ToolOutcome } from '../../call/index.js';
import { describeUndo } from '../undo/undo-approve.js';
import type { UndoReport } from '../../undo/undo.js';
import { renderTable, terminalWidth } from './table.js';
import { cellText, shellValue } from './values.js';

type Result = Record<string, unknown>;

/** What the items of a list answer are, the items and the page's own fields around them. */
export function listItems(result: unknown): Result[] | undefined {
  if (!result || typeof result !== 'object') return undefined;
  const { items, total } = result as Result;
  return Array.isArray(items) && typeof total === 'number' ? (items as Result[]) : undefined;
}

/** The ids a list answer names (`@ids` in the tool shell): each item's id, or uuid for passwords. */
export function itemIds(result: unknown): Array<number | string> {
  return (listItems(result) ?? [])
    .map((item) => item.id ?? item.uuid)
    .filter((v): v is number | string => typeof v === 'number' || typeof v === 'string');
}

/**
 * A tool's answer for a person, chosen by its shape (src/tools/output-schemas.ts), not by tool:
 * a list is a table with its count and a "more:" line that asks for the next page; a write is
 * one line of what changed; an error is its message and hint. Programs read the JSON instead.
 */
export function renderAnswer(
  tool: string,
  params: Record<string, unknown> | undefined,
  outcome: ToolOutcome,
  width = terminalWidth(),
  surface: Surface = 'shell',
): string {
  if (!outcome.ok) {
    const { code, message, hint } = outcome.error;
    return `✗ ${message} (${code})${hint ? `\n  hint: ${hint}` : ''}`;
  }
  const { result, notes } = withoutNotes(outcome.result);
  return `${renderResult(tool, params, result, width, surface)}${notes.map((n) => `\n  ! ${n}`).join('')}`;
}

/** What the pipeline adds to a write's answer (run-tool.ts): said on lines of their own, whatever the shape. */
const NOTES = ['cannot_undo', 'journal_failed', 'audit_log_failed'] as const;

function withoutNotes(result: unknown): { result: unknown; notes: string[] } {
  if (!result || typeof result !== 'object' || Array.isArray(result)) return { result, notes: [] };
  const rest = { ...(result as Result) };
  const notes: string[] = [];
  for (const key of NOTES) {
    if (typeof rest[key] === 'string') notes.push(rest[key] as string);
    delete rest[key];
  }
  return { result: notes.length ? rest : result, notes };
}

function renderResult(tool: string, params: Record<string, unknown> | undefined, result: unknown, width: number, surface: Surface): string {
  const items = listItems(result);
  if (items) return renderList(tool, params, result as Result, items, width);
  if (previewOutput.safeParse(result).success) return renderPreview(result as Result, surface);
  if (undoOutput.safeParse(result).success) return `✓ ${describeUndo(result as UndoReport)}`;
  if (assignOutput.safeParse(result).success) return renderAssign(result as Result);
  const deleted = deletedTermOutput.safeParse(result);
  if (deleted.success) return `✓ ${tool}: deleted "${deleted.data.deleted.name}" (id ${deleted.data.deleted.id})`;
  return `✓ ${tool}: ${oneLine(result)}`;
}

function renderList(tool: string, params: Result | undefined, result: Result, items: Result[], width: number): string {
  const lines: string[] = [];
  // An account's list (passwords, sessions) says whose it is above the table.
  if (typeof result.username === 'string') lines.push(`${result.username} (user ${String(result.user_id)}):`);
  if (items.length) {
    const head = columns(items);
    lines.push(renderTable(head, items.map((item) => head.map((key) => cellText(item[key]))), width));
  }
  const total = result.total as number;
  lines.push(`${items.length} of ${total}${typeof result.note === 'string' ? ` — ${result.note}` : ''}`);
  if (typeof result.next_cursor === 'string') {
    const next = { ...params, cursor: result.next_cursor };
    const args = Object.entries(next).map(([k, v]) => `${k}=${shellValue(v)}`);
    lines.push(`more: ${tool} ${args.join(' ')}`);
  }
  return lines.join('\n');
}

/** The fields the items have, in the order the tool gives them (the first item's first). */
function columns(items: Result[]): string[] {
  const seen = new Set<string>();
  for (const item of items) for (const key of Object.keys(item)) seen.add(key);
  return [...seen];
}

/**
 * Where the answer is shown: the tool shell and the chat ask a person before a call that needs
 * approval; `invoke` is the operator's own command and runs it as given (#60.7: its dry run said
 * "a person approves it when it runs", and then nobody was asked).
 */
export type Surface = 'shell' | 'invoke';

const APPROVAL_WORDS: Record<Surface, string> = {
  shell: ' — needs approval: you are asked before it runs',
  invoke: ' — needs approval where a person is asked (chat, tool shell, MCP); `cms-admin invoke` runs it without asking',
};

function renderPreview(result: Result, surface: Surface): string {
  const { dry_run: _, needs_approval, would, ...rest } = result;
  const said = typeof would === 'string' ? `would ${would}` : oneLine(rest);
  return `dry run (nothing written): ${said}${needs_approval ? APPROVAL_WORDS[surface] : ''}`;
}

function renderAssign(result: Result): string {
  const parts = [`updated ${result.updated} post(s)${result.updated_ids ? ` (${result.updated_ids})` : ''}`];
  parts.push(`${result.unchanged} unchanged`, `${result.failed} failed`);
  const failures = (result.failures as Array<{ post_ids: string; code: string; message: string }>).map(
    (f) => `\n  ✗ posts ${f.post_ids}: ${f.message} (${f.code})`,
  );
  const note = typeof result.note === 'string' ? `\n  ${result.note}` : '';
  return `${result.failed ? '✗' : '✓'} ${parts.join(', ')}${failures.join('')}${note}`;
}

/** A write's answer as `key=value …`: every field, lists and objects cut short. */
function oneLine(result: unknown): string {
  if (!result || typeof result !== 'object') return cellText(result);
  return Object.entries(result as Result)
    .map(([k, v]) => `${k}=${Array.isArray(v) && !v.length ? 'none' : cellText(v, 60)}`)
    .join(' ');
}
