import { ConfigError } from '../config-error.js';
import { MIN_ANSWER_BUDGET } from '../tools/answers/budget.js';
import { closestNames, resolveToolsets, type ToolFilter, tools } from '../call/index.js';

export interface FilterOptions {
  readOnly?: boolean;
  allow?: string;
  toolkit?: string;
  auditLog?: string;
  answerBudget?: string;
  /** --journal FILE or off (cli/journal-path.ts). */
  journal?: string;
  /** --toolsets all|a,b (registry/toolsets.ts); chat and mcp start with the default set without it. */
  toolsets?: string;
}

export const TOOLSETS_FLAG = [
  '--toolsets <names>',
  'toolsets to start with: all, or comma-separated (default: taxonomy,users,changes; `cms-admin tools` lists them)',
] as const;

export const ABILITIES_FLAG = [
  '--abilities <names>',
  "the site's WordPress abilities to offer as tools of their own: names or patterns (woocommerce/*), comma-separated (docs/abilities.md)",
] as const;

/** `--abilities a/b,c/*` as a list. */
export function abilityPatterns(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

export const ANSWER_BUDGET_FLAG = [
  '--answer-budget <chars>',
  'characters of JSON one tool answer may take (default: env CMS_ANSWER_BUDGET, else 80000)',
] as const;

/** A flag's value is wrong: `invalid_config`, exit 2 (like the same setting from the environment). */
export function badFlag(message: string): ConfigError {
  return new ConfigError(message, 'invalid_config');
}

/** A whole-number flag ≥ min, or the error naming it. */
export function wholeNumberFlag(flag: string, raw: string, min: number): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw badFlag(`${flag} takes a whole number ≥ ${min} (it is "${raw}").`);
  return n;
}

/** CLI flags → createContext's options. */
export function contextOptions(options: FilterOptions): { auditLog?: string; answerBudget?: number } {
  if (options.answerBudget === undefined) return { auditLog: options.auditLog };
  const budget = wholeNumberFlag('--answer-budget', options.answerBudget, MIN_ANSWER_BUDGET);
  return { auditLog: options.auditLog, answerBudget: budget };
}

/** CLI flags → the registry filter shared by invoke, chat and mcp. */
export function filterFromOptions(options: FilterOptions): ToolFilter {
  const filter: ToolFilter = {};
  if (options.readOnly) filter.readOnly = true;
  if (options.allow) {
    filter.allow = options.allow
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    checkAllowlist(filter.allow);
  }
  if (options.toolkit) {
    if (options.toolkit !== 'taxonomy' && options.toolkit !== 'users') {
      throw badFlag(`Unknown toolkit "${options.toolkit}" (--toolkit): use taxonomy or users.`);
    }
    filter.toolkit = options.toolkit;
  }
  if (options.toolsets !== undefined) {
    try {
      filter.toolsets = resolveToolsets(options.toolsets);
    } catch (err) {
      throw badFlag(`--toolsets: ${(err as Error).message}`);
    }
  }
  return filter;
}

/** A misspelt name in --allow is the operator's mistake, said with the closest names (exit 2). */
function checkAllowlist(allow: readonly string[]): void {
  const names = tools.map((t) => t.name);
  const unknown = allow.filter((name) => !names.includes(name));
  if (!unknown.length) return;
  const said = unknown.map((name) => {
    const close = closestNames(name, names);
    return `"${name}"${close.length ? ` (did you mean ${close.join(', ')}?)` : ''}`;
  });
  throw badFlag(`--allow names no tool: ${said.join(', ')}. \`cms-admin tools\` lists them.`);
}

export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
