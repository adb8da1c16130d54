/**
 * Approvals in your own agent: a call that needs a person (an administrator, a deletion, an
 * email change; each tool's review decides, read from the site) stops the run with a LangGraph
 * interrupt. Show its summary, then resume with approve or reject. Other calls run at once.
 *
 *   CMS_URL=… CMS_USERNAME=… CMS_APP_PASSWORD=… OPENAI_API_KEY=… \
 *     npx tsx examples/approve-in-the-loop.ts "Make a user alice (alice@example.com) an administrator"
 */
import { stdin, stderr } from 'node:process';
import { createInterface } from 'node:readline/promises';
import { Command, MemorySaver } from '@langchain/langgraph';
import { ChatOpenAI } from '@langchain/openai';
import { createAgent } from 'langchain';
import { type ApprovalInterrupt, type ApprovalResume, allLangChainTools } from 'cms-admin-toolkit';

const site = {
  url: process.env.CMS_URL ?? '',
  username: process.env.CMS_USERNAME ?? '',
  appPassword: process.env.CMS_APP_PASSWORD ?? '',
};
const request = process.argv[2] ?? 'List the users of the site.';

const agent = createAgent({
  model: new ChatOpenAI({
    model: process.env.CMS_AGENT_MODEL ?? 'gpt-4.1-mini',
    configuration: process.env.OPENAI_BASE_URL ? { baseURL: process.env.OPENAI_BASE_URL } : undefined,
  }),
  tools: allLangChainTools({ site, approvals: 'interrupt' }),
  // Any checkpointer: the run's state waits there for the decision (a database one lets
  // another process resume it with the same thread_id).
  checkpointer: new MemorySaver(),
  systemPrompt: 'You administer a WordPress site. Use the tools; answer briefly.',
});
const config = { configurable: { thread_id: `example-${Date.now()}` } };

const rl = createInterface({ input: stdin, output: stderr });
let result = await agent.invoke({ messages: [{ role: 'user', content: request }] }, config);
while (result.__interrupt__?.length) {
  // One decision per waiting call (the model may make several at once), keyed by interrupt id.
  const resume: Record<string, ApprovalResume> = {};
  for (const { id, value } of result.__interrupt__) {
    const { summary } = value as ApprovalInterrupt;
    const answer = await rl.question(`Approve: ${summary}? [y/N] `);
    resume[id ?? ''] = /^y(es)?$/i.test(answer.trim())
      ? { type: 'approve' }
      : { type: 'reject', message: 'The operator said no.' };
  }
  result = await agent.invoke(new Command({ resume }), config);
}
rl.close();
console.log(result.messages.at(-1)?.content);
