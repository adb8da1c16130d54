import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@langchain/langgraph-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.js';
import { type DevServer, langGraphProject, startDevServer } from '../helpers/langgraph-dev.js';
import { ScriptedOpenAI } from '../helpers/scripted-openai.js';
import { testSite, unique, wp } from '../helpers/site.js';

/**
 * Issue #60.2: `npx @langchain/langgraph-cli dev` serves the checkout's `langgraph.json` — the
 * package's graph, the chat runner's agent — and `@langchain/langgraph-sdk` drives it as Agent
 * Chat UI or Studio would: a thread, a run that stops at an approval (LangChain's HITL request,
 * in both spellings), resumes that approve (written, read back from WordPress), reject (nothing
 * written), edit (asked again, then the edited call), and a restart of the server while a
 * question waits. The model is the scripted OpenAI-compatible server.
 */
type Hitl = {
  actionRequests: Array<{ name: string; args: Record<string, unknown>; description: string }>;
  action_requests: Hitl['actionRequests'];
  reviewConfigs: Array<{ actionName: string; allowedDecisions: string[] }>;
  review_configs: Array<{ action_name: string; allowed_decisions: string[] }>;
};

let model: ScriptedOpenAI;
let project: string;
let server: DevServer;
let client: Client;

const env = () => {
  const site = testSite();
  return {
    CMS_URL: site.url,
    CMS_USERNAME: site.username,
    CMS_APP_PASSWORD: site.appPassword,
    CMS_JOURNAL: path.join(mkdtempSync(path.join(tmpdir(), 'cms-lg-journal-')), 'changes.db'),
    OPENAI_API_KEY: 'sk-scripted',
    OPENAI_BASE_URL: model.url,
    CMS_AGENT_MODEL: 'scripted',
  };
};

async function start(): Promise<void> {
  server = await startDevServer(project, env());
  client = new Client({ apiUrl: server.url });
}

beforeAll(async () => {
  model = await new ScriptedOpenAI().start();
  project = langGraphProject();
  await start();
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await model?.stop();
});

/** A new account's name, and the model scripted to create it as an administrator (a call that needs approval). */
function adminCall(): { username: string; args: Record<string, unknown> } {
  const username = unique('lg').toLowerCase().replace(/[^a-z0-9]/g, '');
  const args = { username, email: `${username}@example.com`, role: 'administrator' };
  model.clear();
  model.script({ toolCalls: [{ name: 'create-user', args }] }, { content: 'Done.' });
  return { username, args };
}

async function rolesOf(username: string): Promise<string[][]> {
  const found = await wp().get<Array<{ username: string; roles: string[] }>>('/wp/v2/users', { search: username, context: 'edit' });
  return found.filter((u) => u.username === username).map((u) => u.roles);
}

/** A thread whose run stopped at the approval; its question. */
async function waitingThread(content: string): Promise<{ threadId: string; question: Hitl }> {
  const thread = await client.threads.create();
  await client.runs.wait(thread.thread_id, 'cms-admin', { input: { messages: [{ role: 'user', content }] } });
  const state = await client.threads.getState(thread.thread_id);
  const interrupts = state.tasks.flatMap((task) => task.interrupts ?? []);
  expect(interrupts).toHaveLength(1);
  return { threadId: thread.thread_id, question: interrupts[0]!.value as Hitl };
}

const resume = (threadId: string, resumeValue: unknown) => client.runs.wait(threadId, 'cms-admin', { command: { resume: resumeValue } });

describe('the checkout’s langgraph.json on LangGraph’s dev server', () => {
  it('names the package’s graph (cms-admin-toolkit/langgraph’s `graph`), which the server registers', async () => {
    const config = JSON.parse(readFileSync(path.join(REPO_ROOT, 'langgraph.json'), 'utf8'));
    expect(config.graphs).toEqual({ 'cms-admin': './src/langgraph/graph.ts:graph' });
    const manifest = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
    expect(manifest.exports['./langgraph']['cms-admin-source']).toBe('./src/langgraph/index.ts');
    const assistants = await client.assistants.search({ graphId: 'cms-admin' });
    expect(assistants.map((a) => a.graph_id)).toEqual(['cms-admin']);
  });

  it('a write that needs approval stops the run with LangChain’s HITL request, in both spellings, the question read from the site; approve creates it', async () => {
    const { username, args } = adminCall();
    const { threadId, question } = await waitingThread(`Make ${username} an administrator`);
    expect(question.actionRequests).toEqual([{ name: 'create-user', args, description: expect.stringMatching(new RegExp(`${username}.*administrator \\(manage_options`)) }]);
    expect(question.action_requests).toEqual(question.actionRequests);
    expect(question.reviewConfigs).toEqual([expect.objectContaining({ actionName: 'create-user', allowedDecisions: ['approve', 'edit', 'reject'] })]);
    expect(question.review_configs).toEqual([expect.objectContaining({ action_name: 'create-user', allowed_decisions: ['approve', 'edit', 'reject'] })]);
    expect(await rolesOf(username)).toEqual([]);
    const done = (await resume(threadId, { decisions: [{ type: 'approve' }] })) as { messages: Array<{ content: unknown }> };
    expect(done.messages.at(-1)?.content).toBe('Done.');
    expect(await rolesOf(username)).toEqual([['administrator']]);
  });

  it('reject writes nothing; the model is told', async () => {
    const { username } = adminCall();
    const { threadId } = await waitingThread(`Make ${username} an administrator`);
    await resume(threadId, { decisions: [{ type: 'reject', message: 'Not today.' }] });
    expect(await rolesOf(username)).toEqual([]);
    const told = model.requests.at(-1)?.messages.find((m) => m.role === 'tool');
    expect(String(told?.content)).toContain('Not today.');
  });

  it('edit, as Agent Chat UI sends it (edited_action): the edited call is asked again, then runs as edited', async () => {
    const { username, args } = adminCall();
    const { threadId } = await waitingThread(`Make ${username} an administrator`);
    const edited = { name: 'create-user', args: { ...args, role: 'editor' } };
    await resume(threadId, { decisions: [{ type: 'edit', edited_action: edited }] });
    const again = (await client.threads.getState(threadId)).tasks.flatMap((task) => task.interrupts ?? []);
    expect(again).toHaveLength(1);
    const question = again[0]!.value as Hitl;
    expect(question.action_requests[0]).toMatchObject({ name: 'create-user', args: edited.args, description: expect.stringMatching(/role editor/) });
    expect(question.review_configs[0]).toMatchObject({ action_name: 'create-user', allowed_decisions: ['approve', 'reject'] });
    expect(await rolesOf(username)).toEqual([]);
    await resume(threadId, { decisions: [{ type: 'approve' }] });
    expect(await rolesOf(username)).toEqual([['editor']]);
  });

  it('a question waiting when the server stops still waits after it starts again on the same folder, once written (3 s after the change); approve writes', async () => {
    const { username } = adminCall();
    const { threadId } = await waitingThread(`Make ${username} an administrator`);
    // What survives is what the server wrote to .langgraph_api/ (3 s after each change); stopped
    // hard after that (kill -9: no last write that could be cut short), the thread is all there.
    await server.written(threadId);
    await server.stop('SIGKILL');
    await start();
    const thread = await client.threads.get(threadId);
    expect(thread.status).toBe('interrupted');
    const waiting = (await client.threads.getState(threadId)).tasks.flatMap((task) => task.interrupts ?? []);
    expect(waiting).toHaveLength(1);
    expect((waiting[0]!.value as Hitl).actionRequests[0]?.name).toBe('create-user');
    await resume(threadId, { decisions: [{ type: 'approve' }] });
    expect(await rolesOf(username)).toEqual([['administrator']]);
  }, 180_000);
});
