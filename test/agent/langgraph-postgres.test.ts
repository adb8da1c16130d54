import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@langchain/langgraph-sdk';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.js';
import { langGraphProject, startDevServer } from '../helpers/langgraph-dev.js';
import { recordOutput } from '../helpers/output-log.js';
import { fixedPorts } from '../helpers/ports.js';
import { startPostgres } from '../helpers/postgres.js';
import { ScriptedOpenAI } from '../helpers/scripted-openai.js';
import { testSite, unique, wp } from '../helpers/site.js';

/**
 * Issue #60.2: with CMS_STORE=postgres://… the package's graph keeps its threads in LangGraph's
 * PostgreSQL checkpointer, so an approval asked in one process is answered in another (the first
 * gone). And what is true on LangGraph's own server: it puts its checkpointer on every graph it
 * serves, so there CMS_STORE keeps nothing (the dev server's threads survive a restart in its
 * folder: langgraph-server.test.ts). A real PostgreSQL 15 cluster, started and stopped here.
 */
const execFileAsync = promisify(execFile);
let db: { url: string; stop(): Promise<void> };
let model: ScriptedOpenAI;

beforeAll(async () => {
  [db, model] = await Promise.all([startPostgres({ port: fixedPorts().postgresLangGraph }), new ScriptedOpenAI().start()]);
}, 120_000);
afterAll(async () => {
  await model?.stop();
  await db?.stop();
});

const env = () => {
  const site = testSite();
  return {
    CMS_URL: site.url,
    CMS_USERNAME: site.username,
    CMS_APP_PASSWORD: site.appPassword,
    CMS_STORE: db.url,
    CMS_JOURNAL: path.join(mkdtempSync(path.join(tmpdir(), 'cms-lg-journal-')), 'changes.db'),
    OPENAI_API_KEY: 'sk-scripted',
    OPENAI_BASE_URL: model.url,
    CMS_AGENT_MODEL: 'scripted',
  };
};

type Step = { action: 'start' | 'approve' | 'reject'; thread: string; message?: string };
type Outcome = { interrupts: Array<{ actionRequests: Array<{ name: string; description: string }> }>; last: unknown };

/** Steps of threads in a new process (test/helpers/langgraph-run.ts), which then ends. */
async function inNewProcess(steps: Step[]): Promise<Outcome[]> {
  const { stdout, stderr } = await execFileAsync(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'test/helpers/langgraph-run.ts'), JSON.stringify(steps)], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env() },
  });
  recordOutput(`${stdout}${stderr}`);
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '[]');
}

/** A new account's name; the model scripted to create it as an administrator (asked), then to say it is done. */
function newAdmin(): string {
  const username = unique('pglg').toLowerCase().replace(/[^a-z0-9]/g, '');
  model.script({ toolCalls: [{ name: 'create-user', args: { username, email: `${username}@example.com`, role: 'administrator' } }] });
  return username;
}

async function rolesOf(username: string): Promise<string[][]> {
  const found = await wp().get<Array<{ username: string; roles: string[] }>>('/wp/v2/users', { search: username, context: 'edit' });
  return found.filter((u) => u.username === username).map((u) => u.roles);
}

async function checkpointsOf(threadId: string): Promise<number> {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    const exists = await client.query("SELECT to_regclass('cms_langgraph.checkpoints') AS t");
    if (!exists.rows[0]?.t) return 0;
    return Number((await client.query('SELECT count(*) AS n FROM cms_langgraph.checkpoints WHERE thread_id = $1', [threadId])).rows[0]?.n);
  } finally {
    await client.end();
  }
}

describe('CMS_STORE=postgres://…: the graph’s threads in LangGraph’s PostgreSQL checkpointer', () => {
  it('questions asked in one process are answered in another, the first gone: approve creates the account, reject writes nothing', async () => {
    model.clear();
    const [approved, rejected] = [newAdmin(), newAdmin()];
    const [a, b] = [unique('pg-approve'), unique('pg-reject')];
    const asked = await inNewProcess([
      { action: 'start', thread: a, message: `Make ${approved} an administrator` },
      { action: 'start', thread: b, message: `Make ${rejected} an administrator` },
    ]);
    expect(asked.map((o) => o.interrupts.map((i) => i.actionRequests[0]?.name))).toEqual([['create-user'], ['create-user']]);
    expect(asked[0]!.interrupts[0]!.actionRequests[0]!.description).toMatch(new RegExp(`${approved}.*administrator`));
    expect(await checkpointsOf(a)).toBeGreaterThan(0);
    expect(await rolesOf(approved)).toEqual([]);
    model.script({ content: 'Done.' }, { content: 'Left as it is.' });
    const answered = await inNewProcess([
      { action: 'approve', thread: a },
      { action: 'reject', thread: b },
    ]);
    expect(answered).toEqual([
      { interrupts: [], last: 'Done.' },
      { interrupts: [], last: 'Left as it is.' },
    ]);
    expect(await rolesOf(approved)).toEqual([['administrator']]);
    expect(await rolesOf(rejected)).toEqual([]);
  }, 180_000);

  it('on LangGraph’s dev server the server’s own checkpointer holds the thread: none of it in CMS_STORE', async () => {
    const server = await startDevServer(langGraphProject(), env());
    try {
      const client = new Client({ apiUrl: server.url });
      model.clear();
      const username = newAdmin();
      const thread = await client.threads.create();
      await client.runs.wait(thread.thread_id, 'cms-admin', { input: { messages: [{ role: 'user', content: `Make ${username} an administrator` }] } });
      expect((await client.threads.get(thread.thread_id)).status).toBe('interrupted');
      expect(await checkpointsOf(thread.thread_id)).toBe(0);
    } finally {
      await server.stop();
    }
  }, 180_000);
});
