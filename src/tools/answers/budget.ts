import type { ToolContext } from '../define-tool.js';

/** Characters of JSON a tool answer may take (~20,000 tokens): under the caps clients apply. */
export const DEFAULT_ANSWER_BUDGET = 80_000;
/** Below this no answer is useful (an error or one page note must still fit). */
export const MIN_ANSWER_BUDGET = 2_000;

/** The budget for one answer in this context. */
export function answerBudget(context: Pick<ToolContext, 'answerBudget'>): number {
  const budget = context.answerBudget ?? DEFAULT_ANSWER_BUDGET;
  return Math.max(MIN_ANSWER_BUDGET, Math.floor(budget));
}

/**
 * A list tool's page when the caller did not ask for a size: 15% of the budget (12,000
 * characters by default). Records full of ids, dates and emails run ~3 characters a token
 * (measured with o200k in `npm run bench`), so that is ~4,000 tokens for a first look.
 */
export function defaultPageBudget(context: Pick<ToolContext, 'answerBudget'>): number {
  return Math.max(MIN_ANSWER_BUDGET, Math.floor(answerBudget(context) * 0.15));
}

const size = (value: unknown) => JSON.stringify(value)?.length ?? 0;

/**
 * Last line of defence for every tool: an answer over the budget loses items from the end of
 * its longest arrays (never mid-way through JSON text), and says what was left out. List tools
 * and bulk reports fit themselves first; this only catches what they missed.
 */
export function enforceBudget(result: unknown, budget: number): unknown {
  if (size(result) <= budget) return result;
  if (!result || typeof result !== 'object' || Array.isArray(result)) {
    return { cut: `The answer was ${size(result)} characters, over the ${budget}-character budget; narrow the call.` };
  }
  const copy = structuredClone(result) as Record<string, unknown>;
  const omitted: Record<string, number> = {};
  for (let guard = 0; size(copy) > budget && guard < 200; guard++) {
    const longest = longestArray(copy);
    if (!longest) break;
    const [key, array] = longest;
    const keep = Math.floor(array.length / 2);
    omitted[key] = (omitted[key] ?? 0) + array.length - keep;
    copy[key] = array.slice(0, keep);
  }
  const parts = Object.entries(omitted).map(([key, n]) => `${n} of ${key}`);
  const answer = { ...copy, cut: `Over the ${budget}-character answer budget: left out the last ${parts.join(', ')}.` };
  if (size(answer) <= budget) return answer;
  return { cut: `The answer was ${size(result)} characters, over the ${budget}-character budget; narrow the call.` };
}

/** The top-level array with the most characters. */
function longestArray(record: Record<string, unknown>): [string, unknown[]] | undefined {
  let best: [string, unknown[]] | undefined;
  let bestSize = 0;
  for (const [key, value] of Object.entries(record)) {
    if (!Array.isArray(value) || value.length === 0) continue;
    const length = size(value);
    if (length > bestSize) {
      best = [key, value];
      bestSize = length;
    }
  }
  return best;
}
