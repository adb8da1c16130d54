import { findTool } from '../../call/index.js';
import { isListParam } from '../../tools/params.js';

/** `tool-name {json}` or `tool-name key=value …` → an envelope (values parsed as JSON when they can be). */
export function parseShellLine(line: string, ids: readonly (number | string)[] = []): {
  tool: string;
  params?: Record<string, unknown>;
} {
  const match = /^(\S+)\s*(.*)$/s.exec(line.trim());
  const tool = match?.[1] ?? '';
  const rest = match?.[2]?.trim() ?? '';
  if (!rest) return { tool };
  if (rest.startsWith('{')) return { tool, params: withIds(JSON.parse(rest), ids) };
  const params: Record<string, unknown> = {};
  for (const pair of rest.match(/(?:[^\s"']+|"(?:[^"\\]|\\.)*"|'[^']*')+/g) ?? []) {
    const eq = pair.indexOf('=');
    if (eq < 1) throw new Error(`"${pair}" is not key=value.`);
    const raw = pair.slice(eq + 1).replace(/^'(.*)'$/s, '$1');
    params[pair.slice(0, eq)] = raw === '@ids' ? idsOrThrow(ids) : parseValue(raw);
  }
  return { tool, params: withWordLists(tool, params) };
}

/**
 * A list param given as a word (#60.3), as WP-CLI takes lists: `post_ids=181,182`, one value
 * (`term_ids=javascript`, `post_ids=181`), or brackets without JSON quotes (`source_ids=[python,rust]`).
 * Each item is a word: numbers stay numbers (params.ts reads them by the param's type), names
 * stay names (looked up where an id goes: call/names.ts). A JSON list is taken as it is.
 */
export function withWordLists(tool: string, params: Record<string, unknown>): Record<string, unknown> {
  const definition = findTool(tool);
  if (!definition) return params;
  for (const [key, value] of Object.entries(params)) {
    if (Array.isArray(value) || value === undefined || value === null || !isListParam(definition.schema, key)) continue;
    params[key] = typeof value === 'string' ? wordList(value) : [value];
  }
  return params;
}

function wordList(text: string): string[] {
  const inner = /^\s*\[(.*)\]\s*$/s.exec(text)?.[1] ?? text;
  return inner
    .split(',')
    .map((item) => item.trim().replace(/^(["'])(.*)\1$/s, '$2'))
    .filter((item) => item !== '');
}

function parseValue(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** `"@ids"` as a JSON value means the same as the bare word. */
function withIds(params: Record<string, unknown>, ids: readonly (number | string)[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(params).map(([k, v]) => [k, v === '@ids' ? idsOrThrow(ids) : v]));
}

function idsOrThrow(ids: readonly (number | string)[]): Array<number | string> {
  if (!ids.length) throw new Error('@ids stands for the ids of the last list answer, and there is none yet (or it was empty).');
  return [...ids];
}

/**
 * `invoke TOOL key=value …` (the shell's syntax, as the shell splits words): the envelope. A value
 * is a string unless it is JSON structure (`[1,2]`, `{…}`, `"…"`); numbers and booleans written
 * as words reach the tool's own step (tools/params.ts), which reads them by the param's type, so
 * `name=2024` stays a name. `TOOL '{json}'` is the params as JSON.
 */
export function envelopeFromWords(words: readonly string[]): { tool: string; params: Record<string, unknown> } {
  const [tool = '', ...rest] = words;
  if (rest.length === 1 && rest[0]?.trim().startsWith('{')) return { tool, params: jsonWord('the params', rest[0]) as Record<string, unknown> };
  const params: Record<string, unknown> = {};
  for (const word of rest) {
    const eq = word.indexOf('=');
    if (eq < 1) throw new Error(`"${word}" is not key=value (as in \`cms-admin invoke ${tool} name=News\`).`);
    const raw = word.slice(eq + 1);
    Object.defineProperty(params, word.slice(0, eq), {
      // `[python,rust]` is not JSON: a list of words, read by withWordLists.
      value: /^\s*[{"]/.test(raw) || (/^\s*\[/.test(raw) && (isJson(raw) || !/\]\s*$/.test(raw))) ? jsonWord(word.slice(0, eq), raw) : raw,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return { tool, params: withWordLists(tool, params) };
}

function isJson(raw: string): boolean {
  try {
    JSON.parse(raw);
    return true;
  } catch {
    return false;
  }
}

/** A word read as JSON; the error names the key, never the value (it may be a password). */
function jsonWord(key: string, raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    throw new Error(`The value of ${key} starts like JSON ([, { or ") but is not valid JSON; quote the whole word for the shell: key='[1,2]'.`);
  }
}
