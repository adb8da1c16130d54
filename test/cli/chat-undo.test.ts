import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { ScriptedOpenAI } from '../helpers/scripted-openai.js';
import { unique, wp } from '../helpers/site.js';
import { readTerm } from '../wordpress/taxonomy/fixtures.js';

let server: ScriptedOpenAI;
beforeAll(async () => {
  server = await new ScriptedOpenAI().start();
});
afterAll(() => server.stop());

it('chat: /undo takes back the last change once approved; without a terminal or --yes it is refused', async () => {
  const env = {
    OPENAI_API_KEY: 'test',
    OPENAI_BASE_URL: server.url,
    CMS_AGENT_MODEL: 'scripted',
    CMS_JOURNAL: path.join(mkdtempSync(path.join(tmpdir(), 'chat-undo-')), 'changes.jsonl'),
  };
  const name = unique('Chat undo');
  const cat = await wp().post<{ id: number }>('/wp/v2/categories', { name });
  server.script(
    { toolCalls: [{ name: 'update-category', args: { id: cat.id, name: `${name} 2` } }] },
    { content: 'Renamed.' },
  );
  expect((await runCli(['chat', '--once', 'rename it'], { env })).stdout.trim()).toBe('Renamed.');
  const refused = await runCli(['chat'], { env, input: '/undo\n' });
  expect(refused.stdout).toContain('Not undone');
  expect((await readTerm('categories', cat.id))?.name).toBe(`${name} 2`);
  // A read-only session cannot write, /undo included, even with --yes.
  const readOnly = await runCli(['chat', '--yes', '--read-only'], { env, input: '/undo\n' });
  expect(readOnly.stdout).toMatch(/Not undone: .*undo-change/);
  expect((await readTerm('categories', cat.id))?.name).toBe(`${name} 2`);
  const done = await runCli(['chat', '--yes'], { env, input: '/undo\n' });
  expect(done.stdout).toContain(`restored category ${cat.id} '${name}'`);
  expect((await readTerm('categories', cat.id))?.name).toBe(name);
});

it('tool shell: /undo takes back the last change with --yes', async () => {
  const env = {
    OPENAI_API_KEY: '',
    OPENAI_BASE_URL: '',
    CMS_JOURNAL: path.join(mkdtempSync(path.join(tmpdir(), 'shell-undo-')), 'changes.jsonl'),
  };
  const name = unique('Shell undo');
  const made = await runCli(['chat', '--yes'], { env, input: `/json\ncreate-tag name="${name}"\n` });
  const id = Number(/"id": (\d+)/.exec(made.stdout)?.[1]);
  expect(id).toBeGreaterThan(0);
  const done = await runCli(['chat', '--yes'], { env, input: '/undo\n' });
  // Plain words (#52.11): a created tag's undo deletes it, and says so.
  expect(done.stdout).toMatch(new RegExp(`undo (c\\S+): deleted tag ${id} '${name}' \\(it was created by change \\1\\)`));
  expect(await readTerm('tags', id)).toBeUndefined();
});
