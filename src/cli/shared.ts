import { MIN_ANSWER_BUDGET } from '../tools/answers/budget.js';
import type { ToolFilter } from '../tools/index.js';

export interface FilterOptions {
  readOnly?: boolean;
  allow?: string;
  toolkit?: string;
  auditLog?: string;
  answerBudget?: string;
  /** --journal FILE or off (cli/journal-path.ts). */
  journal?: string;
}

export const ANSWER_BUDGET_FLAG = [
  '--answer-budget <chars>',
  'characters of JSON one tool answer may take (default: env CMS_ANSWER_BUDGET, else 80000)',
] as const;

/** CLI flags → createContext's options. */
export function contextOptions(options: FilterOptions): { auditLog?: string; answerBudget?: number } {
  if (options.answerBudget === undefined) return { auditLog: options.auditLog };
  const budget = Number(options.answerBudget);
  if (!Number.isInteger(budget) || budget < MIN_ANSWER_BUDGET)
    throw new Error(`--answer-budget takes a whole number ≥ ${MIN_ANSWER_BUDGET}.`);
  return { auditLog: options.auditLog, answerBudget: budget };
}

/** CLI flags → the registry filter shared by invoke, chat and mcp. */
export function filterFromOptions(options: FilterOptions): ToolFilter {
  const filter: ToolFilter = {};
  if (options.readOnly) filter.readOnly = true;
  if (options.allow)
    filter.allow = options.allow
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  if (options.toolkit) {
    if (options.toolkit !== 'taxonomy' && options.toolkit !== 'users') {
      throw new Error(`Unknown toolkit "${options.toolkit}": use taxonomy or users.`);
    }
    filter.toolkit = options.toolkit;
  }
  return filter;
}

export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
