import type { benchLargeSite } from './large-site.js';

type Large = Awaited<ReturnType<typeof benchLargeSite>>;
const ok = (pass: boolean) => (pass ? 'met' : '**missed**');

export const LARGE_START = '<!-- large-site -->';
export const LARGE_END = '<!-- /large-site -->';

/** The large-site section of BENCHMARKS.md, between markers so `--large-only` can replace it. */
export function renderLargeSite(
  r: Large,
  counts: Record<string, number>,
  seedSeconds: number,
  wordpress: string | undefined,
): string {
  const rows = Object.entries(r.first)
    .map(
      ([tool, c]) =>
        `| \`${tool}\` | ${c.total} | ${c.chars} | ${c.tokens} | ${c.requests} | ${c.ms.toFixed(0)} ms | ${ok(c.tokens <= 4000)} |`,
    )
    .join('\n');
  const walkTarget = Math.ceil(r.tagWalk.total / 100);
  const { bounded, unbounded } = r.chat;
  return `${LARGE_START}
## Large site

A news site on the bench sandbox (WordPress ${wordpress ?? 'of unknown version'}): ${counts.tags} tags, ${counts.categories} categories (three levels),
${counts.users} users, ${counts.posts} posts, ${seedSeconds ? `seeded with multi-row SQL in ${seedSeconds.toFixed(1)} s` : 'restored from its snapshot (seeded once with multi-row SQL, ~6 s on this machine)'} (\`scripts/bench/huge-site.php\`).
Tokens: js-tiktoken o200k_base. Requests: HTTP requests to WordPress, the connect check excluded.

### First answer of every list tool (no parameters; \`list-terms\` with \`taxonomy: post_tag\`)

| tool | items on the site | characters | tokens | requests | wall time | target ≤ 4,000 tokens |
|---|---|---|---|---|---|---|
${rows}

### Tasks

| task | calls | requests | output tokens | wall time | target | status |
|---|---|---|---|---|---|---|
| find one tag by exact name (\`search\`; ${r.findTag.matches} match) | ${r.findTag.calls} | ${r.findTag.requests} | ${r.findTag.tokens} | ${r.findTag.ms.toFixed(0)} ms | 1 call, ≤ 2 requests, ≤ 500 tokens | ${ok(r.findTag.calls === 1 && r.findTag.requests <= 2 && r.findTag.tokens <= 500)} |
| find one post by exact title (\`find-posts\` \`search\`, any status; ${r.findPost.matches} match) | ${r.findPost.calls} | ${r.findPost.requests} | ${r.findPost.tokens} | ${r.findPost.ms.toFixed(0)} ms | 1 call, ≤ 500 tokens | ${ok(r.findPost.calls === 1 && r.findPost.matches === 1 && r.findPost.tokens <= 500)} |
| editors registered after 2026-01-01 (${r.recentEditors.items} users, every page) | ${r.recentEditors.calls} | ${r.recentEditors.requests} | ${r.recentEditors.tokens} | ${r.recentEditors.ms.toFixed(0)} ms | — | — |
| walk all ${r.tagWalk.total} tags via \`next_cursor\` (${r.tagWalk.items} items, ${r.tagWalk.distinct} distinct) | ${r.tagWalk.calls} | ${r.tagWalk.requests} | ${r.tagWalk.tokens} | ${(r.tagWalk.ms / 1000).toFixed(1)} s | ≤ ${walkTarget} requests, every tag once | ${ok(r.tagWalk.requests <= walkTarget && r.tagWalk.distinct === r.tagWalk.total && r.tagWalk.items === r.tagWalk.total)} |

### A scripted 20-step chat session (lists, search, paging, rename, create)

| history | model requests | largest request (tokens) | total prompt tokens | target: largest ≤ 30,000 |
|---|---|---|---|---|
| bounded (default 24,000 tokens of history) | ${bounded.requests} | ${bounded.largest} | ${bounded.total} | ${ok(bounded.largest <= 30000)} |
| unbounded (for comparison) | ${unbounded.requests} | ${unbounded.largest} | ${unbounded.total} | ${ok(unbounded.largest <= 30000)} |
${LARGE_END}
`;
}
