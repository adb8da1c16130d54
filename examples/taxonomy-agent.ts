/**
 * Bring the taxonomy tools into your own LangChain agent.
 *
 *   CMS_URL=… CMS_USERNAME=… CMS_APP_PASSWORD=… OPENAI_API_KEY=… \
 *     npx tsx examples/taxonomy-agent.ts "Which categories have no posts?"
 */
import { ChatOpenAI } from '@langchain/openai';
import { createAgent } from 'langchain';
import { TaxonomyToolkit } from 'cms-admin-toolkit';

const site = {
  url: process.env.CMS_URL ?? '',
  username: process.env.CMS_USERNAME ?? '',
  appPassword: process.env.CMS_APP_PASSWORD ?? '',
};
const question = process.argv[2] ?? 'List the categories of the site.';

const toolkit = new TaxonomyToolkit({ site });
const agent = createAgent({
  model: new ChatOpenAI({
    model: process.env.CMS_AGENT_MODEL ?? 'gpt-4.1-mini',
    configuration: process.env.OPENAI_BASE_URL ? { baseURL: process.env.OPENAI_BASE_URL } : undefined,
  }),
  tools: toolkit.getTools(),
  systemPrompt: 'You manage the categories and tags of a WordPress site. Use the tools; answer briefly.',
});

const result = await agent.invoke({ messages: [{ role: 'user', content: question }] });
console.log(result.messages.at(-1)?.content);
