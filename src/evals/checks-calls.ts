import { findTool } from '../call/index.js';
import type { ExpectedCall, TurnExpect } from './case-schema.js';
import { describeValue, matchesSubset, subsetDifferences } from './match.js';

/** A tool call as the checks see it: what the agent asked for and whether it succeeded. */
export interface CallRecord {
  name: string;
  args: Record<string, unknown>;
  ok: boolean;
  /** Error code of a failed call (`rejected_by_user`, `term_in_use`…). */
  error?: string;
}

/**
 * Failures of the tool-call and answer checks, each naming what differed. `where` prefixes
 * the messages of a per-turn check ("turn 1: ").
 */
export function checkCalls(expect: TurnExpect, calls: readonly CallRecord[], answer: string, where = ''): string[] {
  const failures: string[] = [];
  for (const expected of expect.called ?? []) {
    const failure = checkCalled(expected, calls);
    if (failure) failures.push(where + failure);
  }
  for (const name of expect.forbidden ?? []) {
    const count = calls.filter((c) => c.name === name).length;
    if (count) failures.push(`${where}forbidden tool ${name} called (${count}×)`);
  }
  if (expect.no_writes) {
    const writes = calls.filter((c) => findTool(c.name)?.annotations.readOnly === false).map((c) => c.name);
    if (writes.length) failures.push(`${where}no write expected, but called ${[...new Set(writes)].join(', ')}`);
  }
  for (const [name, max] of Object.entries(expect.max_calls ?? {})) {
    const count = calls.filter((c) => c.name === name).length;
    if (count > max) failures.push(`${where}${name} called ${count}×, at most ${max} expected`);
  }
  if (expect.asks_question && !answer.includes('?')) {
    failures.push(`${where}answer does not ask a question: ${describeValue(answer, 120)}`);
  }
  for (const text of expect.answer_includes ?? []) {
    if (!answer.toLowerCase().includes(text.toLowerCase())) {
      failures.push(`${where}answer does not mention "${text}": ${describeValue(answer, 120)}`);
    }
  }
  return failures;
}

function checkCalled(expected: ExpectedCall, calls: readonly CallRecord[]): string | undefined {
  const tool = typeof expected === 'string' ? expected : expected.tool;
  const named = calls.filter((c) => c.name === tool);
  if (named.length === 0) return `expected tool ${tool} not called`;
  const succeeded = named.filter((c) => c.ok);
  if (succeeded.length === 0) {
    return `expected tool ${tool} was called but failed (${named.map((c) => c.error ?? 'error').join(', ')})`;
  }
  if (typeof expected === 'string' || !expected.args) return undefined;
  const want = expected.args;
  if (succeeded.some((c) => matchesSubset(want, c.args))) return undefined;
  // Name the difference against the closest successful call.
  const closest = succeeded
    .map((c) => subsetDifferences(want, c.args))
    .sort((a, b) => a.length - b.length)[0] as string[];
  return `expected tool ${tool} with ${describeValue(want)}; closest call differs: ${closest.join('; ')}`;
}
