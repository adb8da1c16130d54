import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeProfiles } from '../../src/sites/store.js';
import { runCli } from '../helpers/cli.js';
import { type Fleet, startFleet } from '../helpers/fleet.js';
import { ScriptedOpenAI } from '../helpers/scripted-openai.js';
import { unique } from '../helpers/site.js';

// `cms-admin chat --sites` (issue #38): the chat's agent on several site profiles, a real model
// client (ChatOpenAI) against the scripted OpenAI server, three real sandboxes (one WordPress 6.1).
let fleet: Fleet;
let server: ScriptedOpenAI;

beforeAll(async () => {
  fleet = await startFleet();
  server = await new ScriptedOpenAI().start();
  const profiles = fleet.sites.map((s) => ({ name: s.name, url: s.url, username: s.username, appPassword: s.appPassword, groups: ['real'] }));
  writeProfiles({ version: 1, sites: profiles }, path.join(fleet.configHome, 'cms-admin', 'sites.json'));
}, 300_000);
afterAll(async () => {
  await server?.stop();
  await fleet?.stop();
});

const env = () => fleet.env({ OPENAI_API_KEY: 'test', OPENAI_BASE_URL: server.url, CMS_AGENT_MODEL: 'scripted' });
const tagsNamed = async (site: string, name: string) =>
  (await fleet.client(site).get<Array<{ name: string }>>('/wp/v2/tags', { search: name, per_page: 100 })).filter((t) => t.name === name);

describe('chat --sites', { timeout: 300_000 }, () => {
  it('the model gets site on every tool and list-sites; --once with --yes writes on each site named, one run; without --yes nothing', async () => {
    const name = unique('Chat fleet');
    const call = { toolCalls: [{ name: 'create-tag', args: { name, site: '@real' } }] };
    server.script(call, (request) => ({ content: String(request.messages.at(-1)?.content) }));
    const refused = await runCli(['chat', '--sites', '@real', '--once', `add the tag ${name} everywhere`], { env: env() });
    expect(refused.code, refused.stderr).toBe(0);
    expect(refused.stdout).toContain('rejected_by_user');
    for (const site of ['one', 'two', 'three']) expect(await tagsNamed(site, name)).toHaveLength(0);
    const tools = server.requests.at(0)?.tools?.map((t) => t.function) ?? [];
    expect(tools.map((t) => t.name)).toContain('list-sites');
    // enable-toolset is the session's, not a site's: the toolset it adds is offered for every site
    // of the session, so it takes {toolset} alone (a site there would say something it does not do).
    const enable = tools.find((t) => t.name === 'enable-toolset');
    expect(enable, 'enable-toolset offered').toBeDefined();
    expect(Object.keys((enable!.parameters as { properties: object }).properties)).toEqual(['toolset']);
    for (const tool of tools.filter((t) => t.name !== 'list-sites' && t.name !== 'enable-toolset')) {
      expect((tool.parameters as { required?: string[] }).required, tool.name).toContain('site');
    }

    server.clear();
    server.script(call, (request) => ({ content: String(request.messages.at(-1)?.content) }));
    const approved = await runCli(['chat', '--sites', '@real', '--once', `add the tag ${name} everywhere`, '--yes'], { env: env() });
    expect(approved.code, approved.stderr).toBe(0);
    const answer = JSON.parse(approved.stdout.trim()) as { summary: string; sites: Array<{ site: string; ok: boolean }>; run: string };
    expect(answer.summary).toBe('3 ok');
    expect(answer.sites.map((s) => s.site)).toEqual(['one', 'two', 'three']);
    expect(answer.run).toMatch(/^r/);
    for (const site of ['one', 'two', 'three']) expect(await tagsNamed(site, name)).toHaveLength(1);
    for (const s of fleet.sites) expect(approved.stdout + approved.stderr).not.toContain(s.appPassword);

    const undo = await runCli(['undo', '--run', answer.run, '--yes', '--sites', '@real'], { env: env() });
    expect(undo.code, undo.stderr + undo.stdout).toBe(0);
    for (const site of ['one', 'two', 'three']) expect(await tagsNamed(site, name)).toHaveLength(0);
  });
});
