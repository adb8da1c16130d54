import { WordPressError } from './errors.js';

/**
 * Bulk routes bounded by time as well as by count (issue #61): the client gives each request a
 * time budget well under its own timeout; the route takes items until the budget is spent (at
 * least one) and answers the ones it did not reach; the client sends those again, until none is
 * left. A slow host or a loaded machine so makes more requests, never a timed-out one, and a
 * request that outlasts the timeout anyway (a lost answer) is the exception the caller looks up.
 */
export const stepOptions: { budgetMs?: number } = {};

/** A third of the client's timeout, at most 10 s (`stepOptions.budgetMs` overrides: tests give 1 ms). */
export function stepBudget(client: { readonly timeoutMs: number }): number {
  return stepOptions.budgetMs ?? Math.max(1, Math.min(10_000, Math.floor(client.timeoutMs / 3)));
}

export interface Steps<I, A> {
  /** Each request's answer, in order. */
  answers: A[];
  requests: number;
  /**
   * The items of the request that failed as a whole, and why. `lost`: its answer never came (a
   * timeout, a dropped connection, a 5xx): the site may have applied any of them, or may still;
   * otherwise WordPress refused it (4xx) and applied none.
   */
  stopped?: { items: I[]; error: WordPressError; lost: boolean };
}

/**
 * Sends `items` through `send` (one request: the items and the budget → the route's answer and
 * the items it left) until every item was taken. A request that fails stops the loop; what was
 * answered before it stands (`stopped`). A route that takes nothing (an old plugin ignoring the
 * budget answers no `remaining`, so it takes everything) cannot loop forever: a step must shrink
 * what is left.
 */
export async function inSteps<I, A>(
  items: readonly I[],
  budgetMs: number,
  send: (items: I[], budgetMs: number) => Promise<{ answer: A; left: I[] }>,
): Promise<Steps<I, A>> {
  const out: Steps<I, A> = { answers: [], requests: 0 };
  let todo = [...items];
  while (todo.length) {
    out.requests++;
    let step: { answer: A; left: I[] };
    try {
      step = await send(todo, budgetMs);
    } catch (err) {
      if (!(err instanceof WordPressError)) throw err;
      out.stopped = { items: todo, error: err, lost: err.status === undefined || err.status >= 500 };
      return out;
    }
    out.answers.push(step.answer);
    if (step.left.length >= todo.length) throw new Error(`a bulk route took none of ${todo.length} item(s)`);
    todo = step.left;
  }
  return out;
}
