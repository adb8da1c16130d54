import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.js';
import { ScriptedOpenAI } from '../helpers/scripted-openai.js';
import { TmuxTerminal } from '../helpers/tmux.js';
import { testSite, unique, wp } from '../helpers/site.js';
import { cliShell } from '../helpers/cli-bin.js';

// A real terminal: tmux runs `cms-admin chat`, send-keys types, capture-pane reads the screen.
const term = new TmuxTerminal('cms-chat');
let server: ScriptedOpenAI;
const screen = () => term.screen();
const waitFor = (text: string | RegExp, timeoutMs?: number) => term.waitFor(text, timeoutMs);
const until = (condition: () => boolean, what: string, timeoutMs?: number) => term.until(condition, what, timeoutMs);

beforeAll(async () => {
  server = await new ScriptedOpenAI().start();
  const site = testSite();
  const env = {
    CMS_URL: site.url,
    CMS_USERNAME: site.username,
    CMS_APP_PASSWORD: site.appPassword,
    OPENAI_API_KEY: 'test',
    OPENAI_BASE_URL: server.url,
    CMS_AGENT_MODEL: 'scripted',
    NO_COLOR: '1',
  };
  const exports = Object.entries(env)
    .map(([k, v]) => `${k}='${v}'`)
    .join(' ');
  const command = `cd ${REPO_ROOT} && env ${exports} ${cliShell()} chat`;
  term.start(command);
  await waitFor('/help for commands');
});

afterAll(async () => {
  term.stop();
  await server.stop();
});
// One test's unconsumed scripted steps must not become the next test's replies.
beforeEach(() => server.clear());

it('streams the answer, asks before a destructive call, and y / n decide', async () => {
  const yes = await wp().post<{ id: number }>('/wp/v2/categories', { name: unique('TTY yes') });
  const no = await wp().post<{ id: number }>('/wp/v2/categories', { name: unique('TTY no') });

  server.script(
    { toolCalls: [{ name: 'delete-category', args: { id: yes.id } }] },
    { content: 'The category is deleted now.' },
  );
  term.type('delete the first one', 'Enter');
  await waitFor('Run it? [y/N]');
  expect(screen()).toContain(`delete-category {"id":${yes.id}}`);
  term.type('y', 'Enter');
  await waitFor('The category is deleted now.');
  expect(
    await wp()
      .get(`/wp/v2/categories/${yes.id}`)
      .catch(() => 'gone'),
  ).toBe('gone');

  server.script(
    { toolCalls: [{ name: 'delete-category', args: { id: no.id } }] },
    { content: 'Understood, I left it alone.' },
  );
  term.type('delete the second one', 'Enter');
  await waitFor(/Run it\? \[y\/N\][\s\S]*Run it\? \[y\/N\]/);
  term.type('n', 'Enter');
  const shown = await waitFor('Understood, I left it alone.');
  expect(shown).toContain('rejected_by_user');
  expect(await wp().get<{ id: number }>(`/wp/v2/categories/${no.id}`)).toMatchObject({ id: no.id });
  // The answer was streamed: the scripted server sent it in several chunks, and it arrived whole.
  expect(shown).toContain('agent> Understood, I left it alone.');
});

it('Ctrl-C cancels the current turn, not the session', async () => {
  // The model answers only after the cancel (never on a timer), so the turn is surely in flight.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const before = server.requests.length;
  server.script(async () => {
    await held;
    return { content: 'too late' };
  });
  term.type('take your time', 'Enter');
  await until(() => server.requests.length > before, 'the model request of the turn');
  term.type('C-c');
  await waitFor('Turn cancelled.');
  release();
  server.script({ content: 'Still here.' });
  term.type('are you there?', 'Enter');
  const shown = await waitFor('agent> Still here.');
  expect(shown).not.toContain('too late');
});

it('/undo 2 in the chat asks once, naming both changes, and takes both back', async () => {
  const names = [unique('TTY undo one'), unique('TTY undo two')];
  server.script(
    { toolCalls: names.map((name) => ({ name: 'create-tag', args: { name } })) },
    { content: 'Both tags are made.' },
  );
  term.type('make two tags', 'Enter');
  await waitFor('Both tags are made.');
  const made = await Promise.all(names.map((name) => wp().get<Array<{ id: number }>>('/wp/v2/tags', { search: name })));
  expect(made.map((found) => found.length)).toEqual([1, 1]);
  term.type('/undo 2', 'Enter');
  const asked = await waitFor(/Approval needed: 2 changes:[\s\S]*Run it\? \[y\/N\]/);
  expect(asked.match(/ {2}• undo \S+ \(create-tag\)/g)).toHaveLength(2);
  term.type('y', 'Enter');
  await until(() => (screen().match(/^undo \S+: /gm) ?? []).length >= 2, 'both undone');
  for (const name of names) expect(await wp().get('/wp/v2/tags', { search: name })).toEqual([]);
});
