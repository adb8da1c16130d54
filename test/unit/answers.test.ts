import { describe, expect, it } from 'vitest';
import { enforceBudget } from '../../src/tools/answers/budget.js';
import { bulkAnswer, idRanges, noneDone } from '../../src/tools/answers/bulk.js';
import { decodeCursor, encodeCursor } from '../../src/tools/answers/cursor.js';
import { ToolError } from '../../src/tools/tool-error.js';

describe('answers', () => {
  it('writes ids as ranges, capped with a count of the rest', () => {
    expect(idRanges([7, 1, 2, 3, 9, 10, 3])).toBe('1-3, 7, 9-10');
    expect(idRanges([])).toBe('');
    const scattered = Array.from({ length: 150 }, (_, i) => i * 2);
    expect(idRanges(scattered)).toMatch(/, 198 and 50 more \(see the audit log\)$/);
  });

  it('groups failures by reason and counts the reasons past 50', () => {
    const failed = [
      ...[5, 6, 7].map((post_id) => ({ post_id, error: { code: 'ETIMEDOUT', message: 'timed out' } })),
      ...Array.from({ length: 55 }, (_, i) => ({ post_id: 100 + i, error: { code: 'x', message: `post ${i}` } })),
    ];
    const answer = bulkAnswer({ updated: [1, 2], unchanged: [], failed });
    expect(answer.failures[0]).toEqual({ post_ids: '5-7', code: 'ETIMEDOUT', message: 'timed out' });
    expect(answer.failures).toHaveLength(50);
    expect(answer).toMatchObject({ updated: 2, failed: 58, updated_ids: '1-2', failure_reasons_not_listed: 6 });
  });

  it('cuts an answer over the budget by whole items and says so; valid JSON always', () => {
    const big = { total: 5000, items: Array.from({ length: 5000 }, (_, id) => ({ id, name: `Item ${id}` })) };
    const cut = enforceBudget(big, 10_000) as { items: unknown[]; cut: string; total: number };
    expect(JSON.stringify(cut).length).toBeLessThanOrEqual(10_000);
    expect(cut.total).toBe(5000);
    expect(cut.items.length).toBeGreaterThan(100);
    expect(cut.cut).toMatch(/left out the last \d+ of items/);
    expect(enforceBudget({ a: 1 }, 10_000)).toEqual({ a: 1 });
    expect(enforceBudget('x'.repeat(20_000), 10_000)).toMatchObject({ cut: expect.stringContaining('narrow') });
  });

  it('binds a cursor to its tool and filters', () => {
    const cursor = encodeCursor('get-cms-tags', { search: 'a' }, { offset: 100, last: 512, total: 900 });
    expect(decodeCursor('get-cms-tags', { search: 'a' }, cursor)).toEqual({ offset: 100, last: 512, total: 900 });
    const fails = (tool: string, filters: Record<string, unknown>, c: string) => {
      try {
        decodeCursor(tool, filters, c);
      } catch (err) {
        expect(err).toBeInstanceOf(ToolError);
        return (err as ToolError).message;
      }
      throw new Error('accepted');
    };
    expect(fails('list-users', { search: 'a' }, cursor)).toContain('came from get-cms-tags');
    expect(fails('get-cms-tags', { search: 'b' }, cursor)).toContain('other filters');
    expect(fails('get-cms-tags', { search: 'a' }, 'garbage!')).toContain('not a cursor');
    expect(fails('get-cms-tags', {}, Buffer.from('{"v":1,"t":"get-cms-tags","o":-1}').toString('base64url'))).toContain(
      'not a cursor',
    );
  });

  it('a bulk call where every post failed says "nothing was changed" only when that is true', () => {
    const vanished = { code: 'term_not_found', message: 'category 7 was deleted meanwhile.' };
    expect(noneDone([{ post_id: 1, error: vanished }, { post_id: 2, error: vanished }]).message).toContain('nothing was changed');
    const left = noneDone([
      { post_id: 1, error: vanished },
      { post_id: 2, error: { ...vanished, message: `${vanished.message} Giving it back its earlier terms failed too.`, changed: true } },
    ]);
    expect(left.code).toBe('all_posts_failed');
    expect(left.message).not.toContain('nothing was changed');
    expect(left.message).toContain('post(s) 2 may have lost terms');
  });
});
