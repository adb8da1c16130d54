import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { ScriptedOpenAI } from '../helpers/scripted-openai.js';
import { testSite, unique, wp } from '../helpers/site.js';

let server: ScriptedOpenAI;
beforeAll(async () => {
  server = await new ScriptedOpenAI().start();
});
afterAll(() => server.stop());
// One test's unconsumed scripted steps must not become the next test's replies.
beforeEach(() => server.clear());

const withModel = () => ({ OPENAI_API_KEY: 'test', OPENAI_BASE_URL: server.url, CMS_AGENT_MODEL: 'scripted' });
const noModel = { OPENAI_API_KEY: '', OPENAI_BASE_URL: '' };

describe('cms-admin chat --once', () => {
  it('--json prints the trace: tool calls, results, tokens', async () => {
    server.script({ toolCalls: [{ name: 'get-cms-tags', args: {} }] }, { content: 'You have tags.' });
    const run = await runCli(['chat', '--once', 'Do I have tags?', '--json'], { env: withModel() });
    expect(run.code).toBe(0);
    const trace = JSON.parse(run.stdout);
    expect(trace.answer).toBe('You have tags.');
    expect(trace.toolCalls).toHaveLength(1);
    expect(trace.toolCalls[0]).toMatchObject({ name: 'get-cms-tags', ok: true });
    expect(JSON.parse(trace.toolCalls[0].result).total).toBe(await wp().count('/wp/v2/tags', { hide_empty: false }));
    expect(trace.usage.total).toBeGreaterThan(0);
    expect(trace.steps).toBe(2);
  });

  it('without a terminal and without --yes, a destructive call is refused and nothing changes', async () => {
    const category = await wp().post<{ id: number }>('/wp/v2/categories', { name: unique('Once keep') });
    server.script({ toolCalls: [{ name: 'delete-category', args: { id: category.id } }] }, (request) => ({
      content: String(request.messages.at(-1)?.content),
    }));
    const run = await runCli(['chat', '--once', 'delete it'], { env: withModel() });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('rejected_by_user');
    expect(run.stdout).toContain('--yes');
    expect(await wp().get<{ id: number }>(`/wp/v2/categories/${category.id}`)).toMatchObject({ id: category.id });
  });

  it('--yes approves destructive calls', async () => {
    const category = await wp().post<{ id: number }>('/wp/v2/categories', { name: unique('Once drop') });
    server.script({ toolCalls: [{ name: 'delete-category', args: { id: category.id } }] }, { content: 'Gone.' });
    const run = await runCli(['chat', '--once', 'delete it', '--yes'], { env: withModel() });
    expect(run.stdout.trim()).toBe('Gone.');
    expect(
      await wp()
        .get(`/wp/v2/categories/${category.id}`)
        .catch(() => 'gone'),
    ).toBe('gone');
  });

  it('a failing model endpoint gives a clear message and exit 1', async () => {
    server.script({ status: 401, content: 'Incorrect API key provided' });
    const run = await runCli(['chat', '--once', 'hi'], { env: withModel() });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('The model endpoint failed');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('cms-admin chat without a model', () => {
  it('says how to configure one and opens the tool shell on the same tools', async () => {
    const name = unique('Shell cat');
    const run = await runCli(['chat'], {
      env: noModel,
      // /json: the shell's answers as JSON (tables by default; tool-shell.test.ts reads those).
      input: `/json\ncreate-category name="${name}"\nget-cms-tags\n/exit\n`,
    });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('OPENAI_BASE_URL');
    expect(run.stdout).toContain('"ok": true');
    const created = await wp().get<Array<{ name: string }>>('/wp/v2/categories', { search: name });
    expect(created.map((c) => c.name)).toEqual([name]);
    expect(run.stdout + run.stderr).not.toContain(testSite().appPassword);
  });

  it('refuses destructive calls in the shell without a terminal', async () => {
    const category = await wp().post<{ id: number }>('/wp/v2/categories', { name: unique('Shell keep') });
    const run = await runCli(['chat'], { env: noModel, input: `delete-category {"id": ${category.id}}\n/exit\n` });
    expect(run.stdout).toContain('Not run');
    expect(await wp().get<{ id: number }>(`/wp/v2/categories/${category.id}`)).toMatchObject({ id: category.id });
  });
});
