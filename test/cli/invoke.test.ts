import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { testSite, unique, wp } from '../helpers/site.js';

async function siteCounts() {
  const [categories, tags, users] = await Promise.all([
    wp().count('/wp/v2/categories', { hide_empty: false }),
    wp().count('/wp/v2/tags', { hide_empty: false }),
    wp().count('/wp/v2/users', { context: 'edit' }),
  ]);
  return { categories, tags, users };
}

describe('cms-admin invoke', () => {
  it('runs a read tool and prints {ok, result} with exit 0', async () => {
    const run = await runCli(['invoke', '{"tool":"get-cms-categories"}']);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out.ok).toBe(true);
    expect(out.result.total).toBe(await wp().count('/wp/v2/categories', { hide_empty: false }));
  });

  it('--allow with two and three tools: each allowed tool runs, any other is tool_not_allowed (exit 2)', async () => {
    for (const allow of ['get-cms-categories,get-cms-tags', 'get-cms-categories,get-cms-tags,list-taxonomies']) {
      for (const name of allow.split(',')) {
        const run = await runCli(['invoke', '--allow', allow, JSON.stringify({ tool: name })]);
        expect(run.code, `${allow}: ${name}`).toBe(0);
        expect(JSON.parse(run.stdout).ok).toBe(true);
      }
      const tag = unique('Not allowed');
      const refused = await runCli(['invoke', '--allow', allow, JSON.stringify({ tool: 'create-tag', params: { name: tag } })]);
      expect(refused.code).toBe(2);
      expect(JSON.parse(refused.stdout).error.code).toBe('tool_not_allowed');
      expect(await wp().get<unknown[]>('/wp/v2/tags', { search: tag })).toEqual([]);
    }
  });

  it('reads the envelope from stdin with -', async () => {
    const run = await runCli(['invoke', '-'], { input: '{"tool":"get-cms-categories","params":{}}' });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).ok).toBe(true);
  });

  it('--dry-run answers what a write would change, read from the site, and writes nothing', async () => {
    const tag = await wp().post<{ id: number; name: string }>('/wp/v2/tags', { name: unique('Dry tag') });
    const run = await runCli(['invoke', '--dry-run', JSON.stringify({ tool: 'delete-tag', params: { id: tag.id } })]);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out).toMatchObject({ ok: true, result: { dry_run: true } });
    expect(JSON.stringify(out.result)).toContain(tag.name);
    expect((await wp().get<{ name: string }>(`/wp/v2/tags/${tag.id}`)).name).toBe(tag.name);
  });

  it('delete-user without reassign_to is an invalid call (exit 2) naming reassign_to; nothing is deleted', async () => {
    const user = await wp().post<{ id: number }>('/wp/v2/users', {
      username: unique('heirless').replace(/\s+/g, ''),
      email: `${unique('h').replace(/\s+/g, '')}@example.com`,
      password: `${unique('Pw')}-x9!Long`,
    });
    const run = await runCli(['invoke', JSON.stringify({ tool: 'delete-user', params: { id: user.id } })]);
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stdout)).toMatchObject({
      ok: false,
      error: { code: 'invalid_params', message: expect.stringContaining('reassign_to') },
    });
    expect((await wp().get<{ id: number }>(`/wp/v2/users/${user.id}`, { context: 'edit' })).id).toBe(user.id);
  });

  it('a bulk call in which every post failed prints ok:false and exits 1', async () => {
    const envelope = { tool: 'assign-categories-to-posts', params: { post_ids: [987_654_321], category_ids: [1] } };
    const run = await runCli(['invoke', JSON.stringify(envelope)]);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: false, error: { code: 'all_posts_failed' } });
  });

  const invalid: Array<[string, string, string]> = [
    ['unknown tool', '{"tool":"create-categry","params":{"name":"X"}}', 'unknown_tool'],
    ['missing required param', '{"tool":"create-category","params":{}}', 'invalid_params'],
    ['wrong type', '{"tool":"create-category","params":{"name":42}}', 'invalid_params'],
    ['extra param', '{"tool":"create-category","params":{"name":"Z","colour":"red"}}', 'invalid_params'],
    ['non-JSON input', '{tool: create-category', 'invalid_json'],
  ];

  it.each(invalid)('%s → exit 2, a message naming the problem, nothing written', async (_label, envelope, code) => {
    const before = await siteCounts();
    const run = await runCli(['invoke', envelope]);
    expect(run.code).toBe(2);
    const out = JSON.parse(run.stdout);
    expect(out).toMatchObject({ ok: false, error: { code } });
    expect(out.error.message.length).toBeGreaterThan(10);
    expect(await siteCounts()).toEqual(before);
  });

  it('names the problem precisely', async () => {
    const unknown = JSON.parse((await runCli(['invoke', '{"tool":"create-categry","params":{"name":"X"}}'])).stdout);
    expect(unknown.error.hint).toContain('create-category');
    const wrongType = JSON.parse((await runCli(['invoke', '{"tool":"create-category","params":{"name":42}}'])).stdout);
    expect(wrongType.error.message).toMatch(/name/);
    const extra = JSON.parse(
      (await runCli(['invoke', '{"tool":"create-category","params":{"name":"Z","colour":"red"}}'])).stdout,
    );
    expect(extra.error.message).toContain('colour');
  });

  it('a WordPress error exits 1 and never prints the application password', async () => {
    const name = unique('CLI dup');
    await wp().post('/wp/v2/categories', { name });
    const run = await runCli(['invoke', JSON.stringify({ tool: 'create-category', params: { name } })]);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).error.code).toBe('term_exists');
    expect(run.stdout + run.stderr).not.toContain(testSite().appPassword);
  });

  it('lists tools as JSON with schemas and annotations', async () => {
    const run = await runCli(['tools', '--json']);
    expect(run.code).toBe(0);
    const list = JSON.parse(run.stdout) as Array<{ name: string; inputSchema: { type: string }; annotations: object }>;
    expect(list.map((t) => t.name)).toContain('get-cms-categories');
    for (const tool of list) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.annotations).toHaveProperty('readOnly');
    }
  });
});

describe('reset links from the envelope CLI', () => {
  it('only with --show-reset-link; without it nothing is made and the hint names the flag', async () => {
    const user = await wp().post<{ id: number }>('/wp/v2/users', {
      username: unique('cli_reset').replace(/\W+/g, '_'),
      email: `${unique('cli').replace(/\W+/g, '_')}@example.org`,
      password: `Pw-${unique('x')}`,
    });
    const envelope = JSON.stringify({ tool: 'reset-user-password', params: { id: user.id, delivery: 'link' } });
    const refused = await runCli(['invoke', envelope]);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout).error).toMatchObject({
      code: 'no_one_to_receive_link',
      hint: expect.stringContaining('--show-reset-link'),
    });
    expect(refused.stdout + refused.stderr).not.toContain('action=rp');
    const shown = await runCli(['invoke', '--show-reset-link', envelope]);
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout).result).toMatchObject({ delivery: 'link', reset_link: expect.stringContaining('action=rp') });
  });
});
