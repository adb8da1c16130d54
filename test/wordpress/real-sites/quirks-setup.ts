import { afterAll, afterEach, beforeAll } from 'vitest';
import { createContext } from '../../../src/config.js';
import type { ToolContext } from '../../../src/call/index.js';
import { FaultProxy } from '../../helpers/fault-proxy.js';
import { testSite, wp } from '../../helpers/site.js';

/** One quirks proxy per test file, in front of the real sandbox; quirks are cleared after each test. */
export function useQuirksProxy(): { proxy: () => FaultProxy } {
  let proxy: FaultProxy | undefined;
  beforeAll(async () => {
    proxy = await new FaultProxy(testSite().url).start();
  });
  afterEach(() => {
    proxy?.clear();
  });
  afterAll(async () => {
    await proxy?.stop();
  });
  return { proxy: () => proxy as FaultProxy };
}

/** A fresh context (own client, own connect and discovery) whose CMS_URL is `url`; see `client.warnings`. */
export function siteAt(url: string): ToolContext {
  return createContext({ ...testSite(), url });
}

/** Categories on the site with exactly this name, read directly. */
export async function categoriesNamed(name: string): Promise<Array<{ id: number; name: string }>> {
  const found = await wp().get<Array<{ id: number; name: string }>>('/wp/v2/categories', {
    search: name,
    hide_empty: false,
    _fields: 'id,name',
    per_page: 100,
  });
  return found.filter((c) => c.name === name);
}
