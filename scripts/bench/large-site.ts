/**
 * The large-site benchmark: a news site of 20,000 tags, 2,000 categories (three levels) and
 * 5,000 users on its own snapshot of the bench sandbox. Measures what an agent pays: the first
 * answer of every list tool, finding one tag, listing editors after a date, walking every tag,
 * and a scripted 20-step chat session's prompt tokens.
 */
import { getEncoding } from 'js-tiktoken';
import type { SandboxCredentials } from '../../src/sandbox/index.js';
import type { ToolContext } from '../../src/call/index.js';
import { callTool, freshContext } from './measure.js';
import { benchChatSession } from './large-session.js';

const encoder = getEncoding('o200k_base');
export const tokens = (text: string) => encoder.encode(text).length;

export interface Cost {
  calls: number;
  requests: number;
  chars: number;
  tokens: number;
  ms: number;
  items?: number;
}

/** One tool call (or a walk of calls) on a fresh client: requests, output size, time. */
async function cost(site: SandboxCredentials, job: (context: ToolContext) => Promise<unknown[]>): Promise<Cost> {
  const context = await freshContext(site);
  const started = performance.now();
  const outputs = await job(context);
  const ms = performance.now() - started;
  const texts = outputs.map((o) => JSON.stringify(o));
  return {
    calls: outputs.length,
    requests: context.client.stats.requests,
    chars: Math.max(...texts.map((t) => t.length)),
    tokens: texts.reduce((sum, t) => sum + tokens(t), 0),
    ms,
  };
}

type Page = { total: number; items: unknown[]; next_cursor: string | null };

/** Follows next_cursor to the end; every answer is kept (bench:floors' list jobs too). */
export async function walk(context: ToolContext, tool: string, params: Record<string, unknown>): Promise<Page[]> {
  const pages: Page[] = [];
  let cursor: string | null = null;
  do {
    const page = (await callTool(context, tool, cursor ? { ...params, cursor } : params)) as Page;
    pages.push(page);
    cursor = page.next_cursor;
  } while (cursor);
  return pages;
}

/** Each list tool's first call: no params, or only the required ones. */
export const LIST_CALLS: Record<string, Record<string, unknown>> = {
  'get-cms-categories': {},
  'get-cms-tags': {},
  'list-users': {},
  'list-taxonomies': {},
  'list-user-roles': {},
  'find-posts': {},
  'list-terms': { taxonomy: 'post_tag' },
};

export async function benchLargeSite(site: SandboxCredentials, log: (line: string) => void) {
  const first: Record<string, Cost & { total: number }> = {};
  for (const [tool, params] of Object.entries(LIST_CALLS)) {
    let total = 0;
    const c = await cost(site, async (context) => {
      const page = (await callTool(context, tool, params)) as Page;
      total = page.total;
      return [page];
    });
    first[tool] = { ...c, total };
    log(`${tool}: ${c.chars} chars, ${c.tokens} tokens, ${c.requests} requests of ${total}`);
  }
  let matches = 0;
  const findTag = await cost(site, async (context) => {
    const page = (await callTool(context, 'get-cms-tags', { search: 'Huge Tag 12345' })) as Page;
    matches = page.total;
    return [page];
  });
  log(`find a tag: ${JSON.stringify(findTag)}`);
  let postMatches = 0;
  const findPost = await cost(site, async (context) => {
    const page = (await callTool(context, 'find-posts', { search: 'Huge Post 04321', status: 'any' })) as Page;
    postMatches = page.total;
    return [page];
  });
  log(`find a post: ${JSON.stringify(findPost)}`);
  let editors = 0;
  const recentEditors = await cost(site, async (context) => {
    const pages = await walk(context, 'list-users', { role: 'editor', registered_after: '2026-01-01' });
    editors = pages.reduce((n, p) => n + p.items.length, 0);
    return pages;
  });
  log(`editors after 2026-01-01: ${editors}, ${JSON.stringify(recentEditors)}`);
  let walked = 0;
  let distinct = 0;
  const tagWalk = await cost(site, async (context) => {
    const pages = await walk(context, 'get-cms-tags', {});
    const ids = pages.flatMap((p) => p.items.map((item) => (item as { id: number }).id));
    walked = ids.length;
    distinct = new Set(ids).size;
    return pages;
  });
  log(`walk of every tag: ${walked} items (${distinct} distinct), ${tagWalk.requests} requests`);
  const chat = await benchChatSession(site, tokens);
  log(`chat: ${JSON.stringify(chat)}`);
  return {
    first,
    findTag: { ...findTag, matches },
    findPost: { ...findPost, matches: postMatches },
    recentEditors: { ...recentEditors, items: editors },
    tagWalk: { ...tagWalk, items: walked, distinct, total: first['get-cms-tags']?.total ?? 0 },
    chat,
  };
}
