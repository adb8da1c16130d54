import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pluginCodeOf, REFUSALS, type RefusalCode } from '../../src/tools/refusals.js';

/**
 * The error codes the toolkit can answer with, read from its source (not a hand-kept list), and
 * the codes docs/error-handling.md's table lists. test/unit/error-codes-doc.test.ts compares them.
 *
 * A code is a literal (`'term_exists'`) or a pattern with `*` where the source builds it from a
 * value (`http_${status}` → `http_*`, `${kind.noun}_not_found` → `*_not_found`).
 */
export interface FoundCode {
  code: string;
  where: string;
}

const ROOT = new URL('../..', import.meta.url).pathname;
/** The sandbox and the evals have their own errors; they never reach a tool's answer. */
const SKIPPED_DIRS = new Set(['src/sandbox', 'src/evals']);
const CODE_LIKE = /^[A-Za-z*][A-Za-z0-9_*]*$/;

function files(dir: string, ext: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(path)) out.push(...files(path, ext));
    } else if (entry.name.endsWith(ext)) out.push(path);
  }
  return out;
}

function lineOf(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}

/** The text of one expression starting at `from`: up to a `,` `;` `)` `}` or line end at depth 0. */
function expressionAt(text: string, from: number): string {
  let depth = 0;
  let quote: string | undefined;
  for (let i = from; i < text.length; i++) {
    const ch = text[i] as string;
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === "'" || ch === '"' || ch === '`') quote = ch;
    else if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if ((ch === ')' || ch === ']' || ch === '}') && depth > 0) depth--;
    else if (depth === 0 && (ch === ',' || ch === ';' || ch === ')' || ch === '}' || ch === '\n')) {
      return text.slice(from, i);
    }
  }
  return text.slice(from);
}

/** String literals of an expression as codes (not those compared with `===`); `${…}` in a template becomes `*`. */
function literals(expression: string): string[] {
  const found: string[] = [];
  for (const m of expression.matchAll(/'([^'\\\n]*)'|"([^"\\\n]*)"|`((?:[^`\\$]|\$\{[^}]*\})*)`/g)) {
    const compared = /[!=]==\s*$/.test(expression.slice(0, m.index)) || /^\s*[!=]==/.test(expression.slice(m.index + m[0].length));
    if (compared) continue;
    const value = (m[1] ?? m[2] ?? m[3] ?? '').replace(/\$\{[^}]*\}/g, '*');
    if (CODE_LIKE.test(value)) found.push(value);
  }
  return found;
}

/**
 * Codes in src/: the first argument of `new ToolError(…)` and every value given to a `code`
 * (`code: 'x'`, `code = cond ? 'a' : \`http_${n}\``) — WordPressError inits, error payloads —
 * and the first of `refusal('…', …)`.
 */
export function sourceCodes(): FoundCode[] {
  const found: FoundCode[] = [];
  for (const file of files('src', '.ts')) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const starts = [
      ...[...text.matchAll(/new ToolError\(\s*/g)].map((m) => m.index + m[0].length),
      // src/tools/refusals.ts: `refusal('code', …)`, the one hint per refusal (#52.10).
      ...[...text.matchAll(/\brefusal\(\s*(?=')/g)].map((m) => m.index + m[0].length),
      ...[...text.matchAll(/\bcode\s*(?::|=(?![=>]))\s*/g)].map((m) => m.index + m[0].length),
      // A table of the plugin's codes as ours: `cms_admin_x: ['our_code', 'the hint']` (role-routes.ts).
      ...[...text.matchAll(/\bcms_admin_\w+:\s*\[\s*(?=')/g)].map((m) => m.index + m[0].length),
    ];
    for (const start of starts) {
      for (const code of literals(expressionAt(text, start))) {
        found.push({ code, where: `${file}:${lineOf(text, start)}` });
      }
    }
  }
  // The refusals' table: a tool may name its code where refuseSelf(…, 'cannot_delete_self') takes one.
  for (const code of Object.keys(REFUSALS)) found.push({ code, where: 'src/tools/refusals.ts' });
  return found;
}

/**
 * The companion plugin's own codes (`new WP_Error('cms_admin_…'`) that reach a tool's answer
 * as they are: those src/ does not name (naming one means a tool translates it), nor
 * src/tools/refusals.ts answers under the review's code (#52.10).
 */
export function pluginCodes(): FoundCode[] {
  const src = files('src', '.ts').map((f) => readFileSync(join(ROOT, f), 'utf8')).join('\n');
  const refused = new Set(Object.keys(REFUSALS).map((code) => pluginCodeOf(code as RefusalCode)));
  const found: FoundCode[] = [];
  for (const file of files('plugin', '.php')) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    for (const m of text.matchAll(/new WP_Error\(\s*'(cms_admin_[a-z0-9_]+)'/g)) {
      const code = m[1] as string;
      if (!src.includes(`'${code}'`) && !refused.has(code)) found.push({ code, where: `${file}:${lineOf(text, m.index)}` });
    }
  }
  return found;
}

export interface DocCode {
  code: string;
  /** The first cell of its row: the kind of problem. */
  kind: string;
}

export const DOC = 'docs/error-handling.md';

/** Every `code` in the codes column of docs/error-handling.md's table. */
export function documentedCodes(): DocCode[] {
  const text = readFileSync(join(ROOT, DOC), 'utf8');
  const rows = text.split('\n').filter((line) => line.startsWith('|') && !/^\|[-\s|]+\|$/.test(line));
  const out: DocCode[] = [];
  for (const row of rows.slice(1)) {
    const [kind = '', codes = ''] = row.split(/\s\|\s/).map((cell) => cell.replace(/^\|\s*/, '').trim());
    // Codes stand outside parentheses; inside them the doc explains (and may name a field or flag).
    for (const m of withoutParentheses(codes).matchAll(/`([^`]+)`/g)) {
      if (CODE_LIKE.test(m[1] as string)) out.push({ code: m[1] as string, kind });
    }
  }
  return out;
}

/** `a` and `b` name the same code: equal, or one is a pattern (`http_*`) the other fits. */
export function sameCode(a: string, b: string): boolean {
  const fits = (pattern: string, code: string) =>
    pattern.includes('*') && new RegExp(`^${pattern.split('*').map(escapeRegExp).join('[A-Za-z0-9_*]+')}$`).test(code);
  return a === b || fits(a, b) || fits(b, a);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}


/** The text with every (…) group removed, nested ones included. */
function withoutParentheses(text: string): string {
  let depth = 0;
  let out = '';
  for (const ch of text) {
    if (ch === '(') depth++;
    else if (ch === ')' && depth > 0) depth--;
    else if (depth === 0) out += ch;
  }
  return out;
}
