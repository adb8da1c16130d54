import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createContext } from '../../src/config.js';
import { memoryJournal } from '../../src/undo/journal.js';
import { undoChange } from '../../src/undo/undo.js';
import { REPO_ROOT, runCli } from '../helpers/cli.js';
import { cliArgs } from '../helpers/cli-bin.js';
import { testMuPlugin } from '../helpers/mu-plugin.js';
import { recordOutput } from '../helpers/output-log.js';
import { callIn, testSite, unique } from '../helpers/site.js';
import { dbSnapshot } from '../wordpress/cleanup/mess.js';
import { wpPhp } from '../wordpress/users/helpers.js';
import { relations, siteState } from './bulk-terms-fixture.js';
import { proxy, useFaultProxy } from './fault-setup.js';

useFaultProxy();

/**
 * Issue #59, findings 4 and 12: a migration interrupted — its process killed after it created
 * its target terms, or a deletion request that outlasts the client's timeout while PHP goes on
 * deleting — is undone from what the site shows, every item that may have been applied
 * included. Read back from the database.
 */
const slow = testMuPlugin('cms-test-slow-delete.php');
beforeAll(() =>
  // A term whose slug says so takes long to delete (pre_delete_term runs before anything is deleted).
  slow.install(`<?php
    add_action('pre_delete_term', static function ($term, $taxonomy) {
        $t = get_term($term, $taxonomy);
        if ($t instanceof WP_Term && str_contains($t->slug, 'slowdel')) usleep(str_contains($t->slug, 'stall') ? 14000000 : 100000);
    }, 10, 2);
    // A post whose title says so takes long to get a term (add_term_relationship runs before the row is written).
    add_action('add_term_relationship', static function ($object_id) {
        if (str_contains((string) get_the_title($object_id), 'slowassign')) usleep(14000000);
    });`),
);
afterAll(() => slow.remove());

/** `count` categories named `<prefix> cNN` (one stalling on deletion: the third), each on two posts. */
async function seedSources(prefix: string, count: number, stallAt?: number) {
  return JSON.parse(
    await wpPhp(`$p = ${JSON.stringify(prefix)}; $cats = []; $posts = [];
      for ($i = 1; $i <= ${count}; $i++) {
        $name = sprintf('%s c%02d%s', $p, $i, $i === ${stallAt ?? 0} ? ' stall' : '');
        $cats[] = $c = wp_insert_term($name, 'category')['term_id'];
        for ($k = 0; $k < 2; $k++) $posts[] = wp_insert_post(['post_title' => "$name $k", 'post_status' => 'publish', 'post_category' => [$c, 1]]);
      }
      echo json_encode(compact('cats', 'posts'));`),
  ) as { cats: number[]; posts: number[] };
}

describe('finding 12: a deletion request that outlasts the client’s timeout', () => {
  it('is reported unknown, never "could not be deleted"; the entry records every source that may go, and undo restores all of them', { timeout: 240_000 }, async () => {
    const prefix = unique('Slowdel').replace(/\s+/g, '-');
    const s = await seedSources(prefix, 25, 3);
    const site = { prefix, posts: s.posts };
    const before = await siteState(site);
    // Requests time out after 10 s (their time budget: a third of it); the third source's deletion takes 14 s.
    const context = createContext(testSite(), { journal: memoryJournal(), timeoutMs: 10_000 });
    const outcome = await callIn(context, 'migrate-terms', { from_taxonomy: 'category', to_taxonomy: 'post_tag', term_ids: s.cats });
    expect(outcome.ok, JSON.stringify(outcome)).toBe(true);
    const terms = (outcome as { result: { terms: Array<{ name: string; source_deleted: unknown; kept_reason?: string }> } }).result.terms;
    // Looked up before answering: the first two were deleted; the rest are unknown, not failed.
    const byName = (n: number) => terms.find((t) => t.name.startsWith(`${prefix} c${String(n).padStart(2, '0')}`));
    expect(byName(1)?.source_deleted).toBe(true);
    expect(byName(2)?.source_deleted).toBe(true);
    for (let n = 3; n <= 25; n++) expect(byName(n)?.source_deleted, `c${n}`).toBe('unknown');
    expect(terms.some((t) => /could not be deleted/.test(t.kept_reason ?? ''))).toBe(false);
    // PHP goes on: the stalled source goes after the answer was given.
    await vi.waitFor(async () => expect(Object.keys(await dbSnapshot(prefix, 'category'))).toHaveLength(22), { timeout: 60_000, interval: 1_000 });
    const report = await undoChange(createContext(testSite(), { journal: context.journal }), context.journal!);
    expect(report.conflicts).toEqual([]);
    expect(await siteState(site)).toEqual(before);
  });
});

describe('finding 12, post terms: a bulk post-terms request that outlasts the client’s timeout', () => {
  it('reports the posts not done yet as unknown, never failed; the entry records them, and undo takes off what landed later', { timeout: 180_000 }, async () => {
    const prefix = unique('Slowassign').replace(/\s+/g, '-');
    const s = JSON.parse(
      await wpPhp(`$p = ${JSON.stringify(prefix)}; $tag = wp_insert_term("$p tag", 'post_tag')['term_id'];
        $posts = array_map(fn ($t) => wp_insert_post(['post_title' => "$p $t", 'post_status' => 'publish']), ['one', 'two slowassign', 'three']);
        echo json_encode(compact('tag', 'posts'));`),
    ) as { tag: number; posts: number[] };
    const site = { prefix, posts: s.posts };
    const before = await siteState(site);
    const context = createContext(testSite(), { journal: memoryJournal(), timeoutMs: 10_000 });
    const outcome = await callIn(context, 'assign-terms-to-posts', { taxonomy: 'post_tag', post_ids: s.posts, term_ids: [s.tag] });
    expect(outcome.ok, JSON.stringify(outcome)).toBe(true);
    const answer = (outcome as { result: { updated_ids: string; failures: Array<{ post_ids: string; code: string }> } }).result;
    expect(answer.updated_ids).toBe(String(s.posts[0]));
    expect(answer.failures).toEqual([expect.objectContaining({ code: 'outcome_unknown' })]);
    // PHP goes on: the second post gets the tag after the answer was given.
    await vi.waitFor(async () => expect((await relations([s.posts[1] as number]))[s.posts[1] as number]?.post_tag).toHaveLength(1), { timeout: 60_000, interval: 1_000 });
    expect((await undoChange(context, context.journal!)).conflicts).toEqual([]);
    expect(await siteState(site)).toEqual(before);
  });
});

describe('finding 4: a migration killed after it created its target terms', () => {
  it('is undone by reading the site: the new tags go, the posts get their categories back, the undo says so, exit 0', { timeout: 180_000 }, async () => {
    const prefix = unique('Killmig').replace(/\s+/g, '-');
    const slug = prefix.toLowerCase();
    const s = await seedSources(prefix, 3);
    const site = { prefix, posts: s.posts };
    const before = await siteState(site);
    const journal = path.join(mkdtempSync(path.join(tmpdir(), 'killmig-')), 'changes.db');
    const { username, appPassword } = testSite();
    const env = { CMS_URL: proxy.url, CMS_USERNAME: username, CMS_APP_PASSWORD: appPassword, CMS_JOURNAL: journal };
    // The objects' request (after the tags were made) is held; the CLI dies while waiting for it.
    proxy.clear().inject({ method: 'POST', path: /\/cms-admin\/v1\/(post-terms|terms\/migrate-objects)/, limit: 1, fault: { kind: 'hold' } });
    const call = { tool: 'migrate-terms', params: { from_taxonomy: 'category', to_taxonomy: 'post_tag', term_ids: s.cats } };
    const child = spawn(process.execPath, [...cliArgs(), 'invoke', JSON.stringify(call)], { cwd: REPO_ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_c, signal) => resolve(signal)));
    await Promise.race([proxy.whenHeld(), exited.then(() => Promise.reject(new Error(`the CLI ended before the held request: ${out}`)))]);
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    recordOutput(out);
    expect(Object.keys(await dbSnapshot(prefix, 'post_tag'))).toHaveLength(3);
    // The held request reaches WordPress after its sender died: the posts move, nobody hears back.
    proxy.release();
    await vi.waitFor(async () => expect((await relations([s.posts[0] as number]))[s.posts[0] as number]?.post_tag).toEqual([`${slug}-c01`]), { timeout: 30_000 });
    proxy.clear();
    expect((await runCli(['changes'], { env })).stdout).toMatch(/migrate-terms\s+.*incomplete/);
    const undo = await runCli(['undo', '--yes'], { env });
    expect(undo.code, undo.stdout + undo.stderr).toBe(0);
    // It says what it took away: the three tags the killed migration had made.
    expect(undo.stdout).toContain('deleted tag');
    for (let n = 1; n <= 3; n++) expect(undo.stdout).toContain(`'${prefix} c0${n}'`);
    expect(await siteState(site)).toEqual(before);
  });
});
