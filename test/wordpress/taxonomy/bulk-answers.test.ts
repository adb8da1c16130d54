import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../src/audit.js';
import { type BulkAnswer, expandIds } from '../../helpers/listing.js';
import { budgetCount } from '../../helpers/budget.js';
import { callOkIn, testContext } from '../../helpers/site.js';
import { makeCategory, makePosts, readPosts, STATUSES } from './fixtures.js';

// How many posts (test/helpers/budget.ts: 1,000 in CI, 300 in npm test): pages of them either way.
const POSTS = budgetCount('bulkPosts', 'bulk answers');

describe('bulk answers on many posts', () => {
  it('assign answers with counts, id ranges and capped failures; the audit log keeps every post', async () => {
    const entries: AuditEntry[] = [];
    const context = { ...testContext(), audit: async (entry: AuditEntry) => void entries.push(entry) };
    const cat = await makeCategory('Thousand');
    const ids = await makePosts(Array.from({ length: POSTS }, (_, i) => ({ status: STATUSES[i % 5] })));
    // 60 unknown posts: each its own reason ("No post with id …"), more than the 50 listed.
    const unknown = Array.from({ length: 60 }, (_, i) => 900_000_000 + i * 2);

    const answer = await callOkIn<BulkAnswer>(context, 'assign-categories-to-posts', {
      post_ids: [...ids, ...unknown],
      category_ids: [cat.id],
    });

    expect(JSON.stringify(answer).length).toBeLessThan(8_000);
    expect(answer).toMatchObject({ updated: POSTS, unchanged: 0, failed: 60, failure_reasons_not_listed: 10 });
    expect(answer.failures).toHaveLength(50);
    expect(answer.failures[0]).toMatchObject({ post_ids: String(unknown[0]), code: 'post_not_found' });
    expect(expandIds(answer.updated_ids)).toEqual([...ids].sort((a, b) => a - b));
    const posts = await readPosts(ids);
    for (const id of ids) expect(posts.get(id)?.categories).toContain(cat.id);
    // The audit log has the full per-post record.
    const detail = entries.at(-1)?.detail as { updated: number[]; failed: Array<{ post_id: number }> };
    expect([...detail.updated].sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
    expect(detail.failed.map((f) => f.post_id).sort()).toEqual([...unknown].sort());

    // Merge of all the posts (and its dry run) answer in a few hundred characters.
    const target = await makeCategory('Thousand target');
    const plan = await callOkIn(context, 'merge-categories', { source_ids: [cat.id], target_id: target.id, dry_run: true });
    expect(plan).toMatchObject({ posts_to_move: POSTS });
    expect(JSON.stringify(plan).length).toBeLessThan(2_000);
    const merged = await callOkIn(context, 'merge-categories', { source_ids: [cat.id], target_id: target.id });
    expect(merged).toMatchObject({ posts_moved: POSTS, posts_failed: [] });
    expect(JSON.stringify(merged).length).toBeLessThan(1_000);
    for (const post of (await readPosts(ids)).values()) expect(post.categories).toContain(target.id);
  }, 180_000);
});
