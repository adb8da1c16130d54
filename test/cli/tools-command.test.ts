import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli } from '../helpers/cli.js';
import { testSite } from '../helpers/site.js';

/**
 * `cms-admin tools` (#52.6, #51): every tool by toolset, what a session on a site (or several) is
 * offered, and the counts README and docs give are the ones it prints.
 */
const read = (file: string) => readFileSync(path.join(REPO_ROOT, file), 'utf8');
const number = (text: string, pattern: RegExp) => {
  const match = pattern.exec(text);
  expect(match, String(pattern)).not.toBeNull();
  return Number((match as RegExpExecArray)[1]);
};
const toolNames = (stdout: string) => [...stdout.matchAll(/^([a-z]+(?:-[a-z]+)+) {2}\[/gm)].map((m) => m[1]);

describe('cms-admin tools', () => {
  it('lists every tool under its toolset; README’s and docs’ counts are what it prints', async () => {
    const run = await runCli(['tools']);
    expect(run.code).toBe(0);
    const headings = [...run.stdout.matchAll(/^== ([a-z-]+): .* \((\d+) tools?[;)]/gm)].map((m) => ({ name: m[1]!, n: Number(m[2]) }));
    const last = run.stdout.trim().split('\n').at(-1) ?? '';
    const total = number(last, /^(\d+) tools in \d+ toolsets/);
    const single = number(last, /(\d+) tools on one site/);
    const network = number(last, /(\d+) more on a network/);
    const fleet = number(last, /(\d+) more with several sites/);
    expect(headings.reduce((sum, h) => sum + h.n, 0)).toBe(total);
    expect(toolNames(run.stdout)).toHaveLength(total);

    const json = JSON.parse((await runCli(['tools', '--json'])).stdout) as Array<{ name: string; toolset: string }>;
    expect(json).toHaveLength(total);
    for (const { name, n } of headings) expect(json.filter((tool) => tool.toolset === name), name).toHaveLength(n);

    const readme = read('README.md');
    expect(number(readme, /\*\*(\d+) tools\*\*/)).toBe(total);
    expect(number(readme, /cms-admin tools \[--json\].*\((\d+) tools\)/)).toBe(total);
    expect(number(readme, /tokens for the (\d+) tools of a single-site session/)).toBe(single);
    expect(number(readme, /with a network's (\d+) tools/)).toBe(network);

    const providers = read('docs/providers.md');
    const table = [...providers.matchAll(/^\| `([a-z-]+)` \| (\d+) \|/gm)].map((m) => ({ name: m[1]!, n: Number(m[2]) }));
    expect(table).toEqual(headings);
    expect(number(providers, /^\| default set, one site \| (\d+) \|/m)).toBe(single);
    expect(number(providers, /^\| default set, a network \(super admin\) \| (\d+) \|/m)).toBe(single + network);
    expect(number(providers, /^\| default set, several sites \(`site` on every tool\) \| (\d+) \|/m)).toBe(single + fleet);

    const fleets = read('docs/fleets.md');
    expect(number(fleets, /tokens for (\d+) tools \(unchanged\)/)).toBe(single);
    expect(number(fleets, /several sites [\d,]+ tokens for (\d+) \(with `list-sites`\)/)).toBe(single + fleet);
    expect(number(read('BENCHMARKS.md'), /The default toolsets' (\d+) tools of one site/)).toBe(single);
  });

  it('an unknown toolset is exit 2 naming the toolsets there are', async () => {
    const run = await runCli(['tools', '--toolsets', 'users,tags']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--toolsets: Unknown toolset(s) "tags": use all, or some of taxonomy, taxonomy-cleanup');
  });

  describe('with site profiles', () => {
    let env: NodeJS.ProcessEnv;
    beforeAll(async () => {
      const site = testSite();
      env = { XDG_CONFIG_HOME: mkdtempSync(path.join(tmpdir(), 'cms-tools-')), CMS_SITE: undefined };
      for (const name of ['one', 'two']) {
        const added = await runCli(['sites', 'add', name, '--url', site.url, '--username', site.username], { input: site.appPassword, env });
        expect(added.code, added.stderr).toBe(0);
      }
    });

    it('--site NAME: what a session on that site is offered; --toolsets narrows it and says what enable-toolset adds', async () => {
      const run = await runCli(['tools', '--site', 'one'], { env });
      expect(run.code, run.stderr).toBe(0);
      const everything = JSON.parse((await runCli(['tools', '--json', '--toolsets', 'taxonomy,users,changes'])).stdout);
      expect(toolNames(run.stdout).sort()).toEqual(everything.map((t: { name: string }) => t.name).sort());
      // One site, not a network: no network tools, no list-sites.
      expect(run.stdout).not.toContain('grant-super-admin');
      expect(run.stdout.trim().split('\n').at(-1)).toMatch(
        new RegExp(`^${everything.length} tools offered on this site, toolsets taxonomy, users, changes(; enable-toolset adds .+)?\\.$`),
      );
      const narrow = await runCli(['tools', '--site', 'one', '--toolsets', 'taxonomy'], { env });
      expect(narrow.stdout.trim().split('\n').at(-1)).toMatch(/^\d+ tools offered on this site, toolsets taxonomy; enable-toolset adds (.+, )?users, (.+, )?changes(, .+)?\.$/);
      expect(toolNames(narrow.stdout)).not.toContain('list-users');
    });

    it('--sites a,b: every tool takes site and list-sites is listed', async () => {
      const run = await runCli(['tools', '--json', '--sites', 'one,two'], { env });
      expect(run.code, run.stderr).toBe(0);
      const listed = JSON.parse(run.stdout) as Array<{ name: string; toolset: string; inputSchema: { required?: string[] } }>;
      expect(listed.find((tool) => tool.name === 'list-sites')).toMatchObject({ toolset: 'fleet' });
      for (const tool of listed.filter((t) => t.name !== 'list-sites')) expect(tool.inputSchema.required, tool.name).toContain('site');
      const text = await runCli(['tools', '--sites', 'one,two'], { env });
      expect(text.stdout.trim().split('\n').at(-1)).toMatch(
        new RegExp(`^${listed.length} tools offered on 2 sites, toolsets taxonomy, users, changes, fleet(; enable-toolset adds .+)?\\.$`),
      );
    });
  });
});
