import { recordOutput } from './output-log.js';

// setupFiles entry: console lines printed while tests run go to the output log too.
for (const method of ['log', 'info', 'warn', 'error'] as const) {
  const original = console[method].bind(console);
  console[method] = (...args: unknown[]) => {
    recordOutput(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' '));
    original(...args);
  };
}
