import { recordOutput } from './output-log.js';

// setupFiles entry: console lines printed while tests run go to the output log too. Each file runs
// this (a worker's files share one process: isolate: false), so a console already wrapped is left
// as it is; a new console object (vitest's own, per worker) is wrapped.
const wrapped = Symbol.for('cms-test.record-console');
const target = console as Console & { [wrapped]?: boolean };
if (!target[wrapped]) {
  target[wrapped] = true;
  for (const method of ['log', 'info', 'warn', 'error'] as const) {
    const original = target[method].bind(target);
    target[method] = (...args: unknown[]) => {
      recordOutput(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' '));
      original(...args);
    };
  }
}
