import { Command } from '@langchain/langgraph';
import { createAdminGraph } from '../../src/langgraph/index.js';

/**
 * Steps of threads of the package's graph in a process of its own (test/agent/langgraph-postgres.test.ts),
 * given as JSON: `[{"action": "start", "thread": "a", "message": "…"}, {"action": "approve" | "reject", "thread": "a"}]`.
 * A start runs until the graph asks, an answer resumes; then the process ends — so a question
 * that waits between two processes lives only in the checkpointer (CMS_STORE=postgres://…).
 * Prints what each step ended with, as JSON.
 */
type Step = { action: 'start' | 'approve' | 'reject'; thread: string; message?: string };
const steps = JSON.parse(process.argv[2] ?? '[]') as Step[];
const graph = await createAdminGraph();
const results = [];
for (const { action, thread, message } of steps) {
  const input =
    action === 'start'
      ? { messages: [{ role: 'user', content: message ?? '' }] }
      : new Command({ resume: { decisions: [action === 'approve' ? { type: 'approve' } : { type: 'reject', message: 'No.' }] } });
  const result = (await graph.invoke(input as never, { configurable: { thread_id: thread } })) as {
    __interrupt__?: Array<{ value: unknown }>;
    messages: Array<{ content: unknown }>;
  };
  results.push({ interrupts: (result.__interrupt__ ?? []).map((i) => i.value), last: result.messages.at(-1)?.content });
}
process.stdout.write(`${JSON.stringify(results)}\n`);
// The checkpointer's connection pool would keep the process up.
process.exit(0);
