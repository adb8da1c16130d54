import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import type { ApprovalRequest, Approver } from '../../../src/call/index.js';
import { runCli } from '../../helpers/cli.js';
import { createContext } from '../../../src/config.js';
import { fileJournal } from '../../../src/undo/journal.js';
import { testSite, unique, wp } from '../../helpers/site.js';
import { wpPhp } from '../users/helpers.js';

/**
 * The sandbox's abilities (scripts/sandbox/sandbox-abilities.php, on every sandbox of WordPress
 * 6.9+): read-only, additive, destructive, without annotations, nested with enums, and one an
 * editor may not run. Their effects are read back from WordPress, never through the tools.
 */
export const ABILITY = {
  query: 'cms-sandbox/products-query',
  create: 'cms-sandbox/product-create',
  remove: 'cms-sandbox/product-delete',
  touch: 'cms-sandbox/products-touch',
  file: 'cms-sandbox/product-file',
  purge: 'cms-sandbox/products-purge',
} as const;

export interface Product {
  id: number;
  title: string;
  status: string;
}

/** The shop's products with this exact title, every status, read straight from WordPress. */
export async function productsTitled(title: string): Promise<Product[]> {
  const out = await wpPhp(
    `echo json_encode(array_map(fn ($p) => ['id' => $p->ID, 'title' => $p->post_title, 'status' => $p->post_status], get_posts(['post_type' => 'product', 'post_status' => 'any', 'numberposts' => -1, 'title' => ${JSON.stringify(title)}])));`,
  );
  return JSON.parse(out) as Product[];
}

/** A product made straight through REST (not through an ability). */
export async function makeProduct(status = 'draft'): Promise<Product> {
  const title = unique('Ability product');
  const made = await wp().post<{ id: number }>('/wp/v2/products', { title, status });
  return { id: made.id, title, status };
}

/** Whether a product exists (any status). */
export async function productExists(id: number): Promise<boolean> {
  return (await wpPhp(`echo get_post(${id}) ? 'yes' : 'no';`)).trim() === 'yes';
}

/** How many times products-touch ran (its option). */
export async function touched(): Promise<number> {
  return Number((await wpPhp("echo (int) get_option('cms_sandbox_shop_touched', 0);")).trim());
}

/** Leaves the shop as seeded: the products a test made go, the touch counter too. */
export async function removeProducts(titlePrefix: string): Promise<void> {
  await wpPhp(
    `foreach (get_posts(['post_type' => 'product', 'post_status' => 'any', 'numberposts' => -1]) as $p) { if (str_starts_with($p->post_title, ${JSON.stringify(titlePrefix)})) wp_delete_post($p->ID, true); } delete_option('cms_sandbox_shop_touched');`,
  );
}

/** A context of the test site with a change store of its own (SQLite file in a temp folder). */
export function storeContext(extra: { auditLog?: string; url?: string } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'cms-abilities-'));
  const journal = fileJournal(path.join(dir, 'changes.db'));
  const context = createContext({ ...testSite(), ...(extra.url && { url: extra.url }) }, { journal, ...(extra.auditLog && { auditLog: extra.auditLog }) });
  return { context, journal, dir };
}

/** An approver that records each question and answers `answer`. */
export function recorder(answer: boolean | ((request: ApprovalRequest) => boolean) = false) {
  const asked: ApprovalRequest[] = [];
  const approver: Approver = async (request) => {
    asked.push(request);
    const yes = typeof answer === 'function' ? answer(request) : answer;
    return yes ? { approved: true } : { approved: false, reason: 'Declined in the test.' };
  };
  return { asked, approver };
}

/** `cms-admin tools --site NAME` on the test site: what a session there is offered, its last line the summary. */
export async function toolsOnSite(): Promise<string> {
  const site = testSite();
  const env = { XDG_CONFIG_HOME: mkdtempSync(path.join(tmpdir(), 'cms-abilities-tools-')), CMS_SITE: undefined };
  const added = await runCli(['sites', 'add', 'here', '--url', site.url, '--username', site.username], { input: site.appPassword, env });
  expect(added.code, added.stderr).toBe(0);
  const run = await runCli(['tools', '--site', 'here'], { env });
  expect(run.code, run.stderr).toBe(0);
  return run.stdout.trim().split('\n').at(-1) ?? '';
}
