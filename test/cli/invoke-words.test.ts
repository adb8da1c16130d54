import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { unique, wp } from '../helpers/site.js';

describe('cms-admin invoke TOOL key=value … (#52.1)', () => {
  it('get-cms-tags limit=1 runs as in the tool shell', async () => {
    const run = await runCli(['invoke', 'get-cms-tags', 'limit=1']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out.ok).toBe(true);
    expect(out.result.items.length).toBeLessThanOrEqual(1);
  });

  it('a name that looks like a number stays a name; the write is read back from WordPress', async () => {
    const name = `${Date.now() % 1_000_000_000}`;
    const run = await runCli(['invoke', 'create-tag', `name=${name}`, 'description=From key=value']);
    expect(run.code, run.stdout).toBe(0);
    const [tag] = await wp().get<Array<{ name: string; description: string }>>('/wp/v2/tags', { search: name });
    expect(tag).toMatchObject({ name, description: 'From key=value' });
  });

  it('JSON lists as values, and TOOL {json}', async () => {
    const tag = await wp().post<{ id: number }>('/wp/v2/tags', { name: unique('Words list') });
    const post = await wp().post<{ id: number }>('/wp/v2/posts', { title: unique('Words post'), status: 'draft' });
    const run = await runCli(['invoke', 'assign-tags-to-posts', `post_ids=[${post.id}]`, `tag_ids=[${tag.id}]`]);
    expect(run.code, run.stdout).toBe(0);
    expect((await wp().get<{ tags: number[] }>(`/wp/v2/posts/${post.id}`, { context: 'edit' })).tags).toContain(tag.id);
    const json = await runCli(['invoke', 'get-cms-tags', '{"limit":1}']);
    expect(JSON.parse(json.stdout).ok).toBe(true);
  });

  it('a word that is not key=value is a usage error (exit 2) naming it; nothing runs', async () => {
    const run = await runCli(['invoke', 'create-tag', 'News']);
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stdout).error).toMatchObject({ code: 'invalid_params', message: expect.stringContaining('"News" is not key=value') });
    const bad = await runCli(['invoke', 'create-tag', 'name=[oops']);
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stdout).error.message).toContain('name');
  });
});
