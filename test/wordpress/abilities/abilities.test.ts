import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoke } from '../../../src/call/envelope.js';
import type { ToolContext, ToolOutcome } from '../../../src/call/index.js';
import { createContext } from '../../../src/config.js';
import { recordOutput } from '../../helpers/output-log.js';
import { FaultProxy } from '../../helpers/fault-proxy.js';
import { call, callOk, testSite, unique, withoutCompanion, wordPressAtLeast } from '../../helpers/site.js';
import { makeAppPassword, makeUser } from '../users/helpers.js';
import { ABILITY, makeProduct, productExists, productsTitled, recorder, removeProducts, storeContext, toolsOnSite, touched } from './helpers.js';

/**
 * Issue #62: the site's WordPress abilities through `invoke` (the library's, with an approver, and
 * the operator's own call): what the site marks read-only runs unasked; every other asks, naming
 * the ability, its label and description, the site and the input, and saying it is neither
 * previewed nor undone; declined, nothing runs; approved, it runs once; an invalid input is refused
 * before any request runs it; the change store and the audit log hold the runs; an editor gets the
 * site's refusal. Every effect is read back from WordPress.
 */
const PREFIX = 'Ability product';
const run = async (context: ToolContext, params: Record<string, unknown>, approver?: ReturnType<typeof recorder>['approver']): Promise<ToolOutcome> => {
  const outcome = await invoke({ tool: 'run-ability', params }, context, {}, approver ? { approver } : {});
  recordOutput(JSON.stringify(outcome));
  return outcome;
};

describe.skipIf(!wordPressAtLeast('6.9'))('WordPress abilities', () => {
  afterAll(() => removeProducts(PREFIX));

  it('find-abilities lists the site’s abilities with what the site says of each, filtered and paged', async () => {
    const all = await callOk('find-abilities', { namespace: 'cms-sandbox' });
    expect(all.items.map((a: { name: string }) => a.name)).toEqual(Object.values(ABILITY).sort());
    const byName = Object.fromEntries(all.items.map((a: { name: string }) => [a.name, a]));
    expect(byName[ABILITY.query]).toMatchObject({ label: 'Find products', category: 'cms-sandbox-shop', annotations: { readonly: true }, asks: false });
    expect(byName[ABILITY.create]).toMatchObject({ annotations: { readonly: false, destructive: false }, asks: true });
    // No annotations: null, and it asks.
    expect(byName[ABILITY.touch]).toMatchObject({ annotations: { readonly: null, destructive: null, idempotent: null }, asks: true });
    // WordPress's own abilities are there too (7.0+ registers core/get-site-info …).
    const core = await callOk('find-abilities', { search: 'site info' });
    expect(core.items.map((a: { name: string }) => a.name)).toContain('core/get-site-info');
    expect((await callOk('find-abilities', { category: 'cms-sandbox-shop', search: 'delete' })).items.map((a: { name: string }) => a.name)).toEqual([
      ABILITY.remove,
      ABILITY.purge,
    ]);
    const first = await callOk('find-abilities', { namespace: 'cms-sandbox', limit: 2 });
    expect(first).toMatchObject({ total: 6, items: [{ name: ABILITY.create }, { name: ABILITY.remove }] });
    const next = await callOk('find-abilities', { namespace: 'cms-sandbox', limit: 10, cursor: first.next_cursor });
    expect(next.items).toHaveLength(4);
  });

  it('a session on the site is offered the toolset through enable-toolset (`cms-admin tools --site`)', async () => {
    const summary = await toolsOnSite();
    expect(summary).toMatch(/enable-toolset adds [^.]*abilities/);
    expect(summary).not.toContain('No abilities toolset');
  });

  it('describe-ability gives the input schema in the model’s terms: nested, with its enums and required members', async () => {
    const described = await callOk('describe-ability', { name: ABILITY.file });
    expect(described).toMatchObject({ name: ABILITY.file, asks: true, method: 'POST' });
    expect(described.input_schema.required).toEqual(['product', 'shelf']);
    expect(described.input_schema.properties.product).toMatchObject({
      type: 'object',
      required: ['title', 'status'],
      properties: { status: { enum: ['draft', 'pending', 'publish'] } },
    });
    expect(described.undo).toMatch(/cannot be undone/);
    expect((await callOk('describe-ability', { name: ABILITY.remove })).method).toBe('DELETE');
    expect(await call('describe-ability', { name: 'cms-sandbox/no-such' })).toMatchObject({ ok: false, error: { code: 'ability_not_found' } });
    // The dry run and the call refuse it alike (refusal-paths.test.ts's rule).
    const dry = await call('run-ability', { name: 'cms-sandbox/no-such', input: {}, dry_run: true });
    const real = await call('run-ability', { name: 'cms-sandbox/no-such', input: {} });
    expect(dry).toEqual(real);
    expect(real).toMatchObject({ ok: false, error: { code: 'ability_not_found', hint: expect.stringMatching(/find-abilities/) } });
  });

  it('a read-only ability runs without a question (over GET, its input in the query string)', async () => {
    const seen = recorder(false);
    const outcome = await run(createContext(testSite()), { name: ABILITY.query, input: { search: 'Mug', per_page: '5' } }, seen.approver);
    expect(seen.asked).toEqual([]);
    expect(outcome).toMatchObject({ ok: true, result: { ability: ABILITY.query, result: { products: [{ title: 'Ceramic Mug' }] } } });
  });

  it('an additive ability asks, naming it, the site and the input; declined it runs nothing; approved it runs once', async () => {
    const title = unique(PREFIX);
    const declined = recorder(false);
    const { context, journal } = storeContext();
    const no = await run(context, { name: ABILITY.create, input: { title, status: 'draft' } }, declined.approver);
    expect(no).toMatchObject({ ok: false, error: { code: 'rejected_by_user' } });
    expect(declined.asked).toHaveLength(1);
    const question = declined.asked[0]!;
    const host = new URL(testSite().url).host;
    for (const words of ['"Create a product"', ABILITY.create, host, 'Adds a product to the shop', `title: "${title}"`, 'status: "draft"', 'adding, not deleting', 'cannot preview', 'nor undo']) {
      expect(question.summary).toContain(words);
    }
    expect(await productsTitled(title)).toEqual([]);
    expect(await journal.entries()).toEqual([]);

    const approved = recorder(true);
    const yes = await run(context, { name: ABILITY.create, input: { title } }, approved.approver);
    expect(yes).toMatchObject({ ok: true, result: { ability: ABILITY.create, result: { title, status: 'draft' }, undo: expect.stringMatching(/cannot be undone/) } });
    expect(approved.asked).toHaveLength(1);
    expect(await productsTitled(title)).toHaveLength(1);
    // Recorded like every write: the site, the person, cannot be undone and why.
    const [entry] = await journal.entries();
    expect(entry).toMatchObject({ tool: 'cms-sandbox_product-create', user: testSite().username, reversible: false, why_not: expect.stringMatching(/only the site knows what it changed/) });
    expect(entry?.summary).toContain(title);
    const listed = await invoke({ tool: 'list-changes', params: {} }, context);
    expect(JSON.stringify(listed)).toContain('cms-sandbox_product-create');
  });

  it('a destructive ability says it may delete (DELETE); one without annotations counts as destructive', async () => {
    const product = await makeProduct();
    const seen = recorder(false);
    const context = createContext(testSite());
    await run(context, { name: ABILITY.remove, input: { id: product.id } }, seen.approver);
    expect(seen.asked[0]?.summary).toMatch(/may delete or overwrite data: the site marks it destructive/);
    expect(await productExists(product.id)).toBe(true);
    const before = await touched();
    await run(context, { name: ABILITY.touch }, seen.approver);
    expect(seen.asked[1]?.summary).toMatch(/does not say what it changes, so it is treated as one that may delete/);
    expect(await touched()).toBe(before);
    // Approved: the DELETE route runs it (the run route takes only the method the annotations imply).
    const yes = await run(context, { name: ABILITY.remove, input: { id: String(product.id) } }, recorder(true).approver);
    expect(yes).toMatchObject({ ok: true, result: { result: { deleted: { id: product.id } } } });
    expect(await productExists(product.id)).toBe(false);
  });

  it('an invalid input is refused before any request runs the ability, in words that say what to fix', async () => {
    const proxy = await new FaultProxy(testSite().url).start();
    try {
      const context = createContext({ ...testSite(), url: proxy.url });
      const title = unique(PREFIX);
      const bad = await run(context, { name: ABILITY.file, input: { product: { title, status: 'sold' }, shelf: {} } }, recorder(true).approver);
      expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_params' } });
      const message = (bad as { error: { message: string } }).error.message;
      expect(message).toContain('input.product.status: does not match any of ["draft","pending","publish"]');
      expect(message).toContain('input.shelf: does not have required property "category"');
      // The ability's definition was read (its schema, its annotations); nothing ran it.
      expect(proxy.events.filter((e) => /\/run\b|dry-run/.test(e.path))).toEqual([]);
      expect(proxy.events.filter((e) => e.method !== 'GET')).toEqual([]);
      expect(await productsTitled(title)).toEqual([]);
      // JSON text, as run-ability's schema tells the model, is the same input.
      const text = await run(context, { name: ABILITY.file, input: JSON.stringify({ product: { title }, shelf: { category: 'x' } }) }, recorder(true).approver);
      expect(text).toMatchObject({ ok: false, error: { code: 'invalid_params', message: expect.stringContaining('input.product: does not have required property "status"') } });
      expect(proxy.events.filter((e) => e.method !== 'GET')).toEqual([]);
    } finally {
      await proxy.stop();
    }
  });

  it('a nested input with enums runs as given once approved', async () => {
    const title = unique(PREFIX);
    const shelf = unique('Ability shelf');
    const outcome = await run(createContext(testSite()), { name: ABILITY.file, input: { product: { title, status: 'pending' }, shelf: { category: shelf, placement: 'back' } } }, recorder(true).approver);
    expect(outcome).toMatchObject({ ok: true, result: { result: { title, status: 'pending', category: shelf, placement: 'back' } } });
    expect(await productsTitled(title)).toMatchObject([{ status: 'pending' }]);
  });

  describe('an editor', () => {
    let editor: ToolContext;
    beforeAll(async () => {
      const user = await makeUser({ prefix: 'abilityeditor', roles: ['editor'] });
      editor = createContext({ ...testSite(), username: user.username, appPassword: await makeAppPassword(user.id) });
    });

    it('gets the site’s refusal, naming the ability, before anyone is asked (the plugin checks it)', async () => {
      const draft = await makeProduct('draft');
      const seen = recorder(true);
      const outcome = await run(editor, { name: ABILITY.purge, input: { status: 'draft' } }, seen.approver);
      expect(outcome).toMatchObject({ ok: false, error: { code: 'ability_refused', details: { ability: ABILITY.purge, site_code: 'rest_ability_cannot_execute' } } });
      expect((outcome as { error: { message: string } }).error.message).toMatch(/The site refused to run cms-sandbox\/products-purge \("Purge products"\) for abilityeditor/);
      expect(seen.asked).toEqual([]);
      expect(await productExists(draft.id)).toBe(true);
    });

    it('gets the same refusal, code and hint, from a dry run and from the call (refusal-paths.test.ts’s rule)', async () => {
      const draft = await makeProduct('draft');
      const dry = await run(editor, { name: ABILITY.purge, input: { status: 'draft' }, dry_run: true });
      const real = await run(editor, { name: ABILITY.purge, input: { status: 'draft' } });
      for (const outcome of [dry, real]) expect(outcome).toMatchObject({ ok: false, error: { code: 'ability_refused', hint: expect.stringMatching(/permission callback/) } });
      expect((dry as { error: { hint: string } }).error.hint).toBe((real as { error: { hint: string } }).error.hint);
      expect(await productExists(draft.id)).toBe(true);
    });

    it('gets it from the run route too: the operator’s own call, and a site without the plugin', async () => {
      const draft = await makeProduct('draft');
      for (const context of [editor, withoutCompanion(createContext({ ...testSite(), username: editor.client.username, appPassword: secretOf(editor) }))]) {
        const outcome = await run(context, { name: ABILITY.purge, input: { status: 'draft' } });
        expect(outcome).toMatchObject({ ok: false, error: { code: 'ability_refused', details: { site_code: 'rest_ability_cannot_execute' } } });
      }
      expect(await productExists(draft.id)).toBe(true);
      // What the editor may run, it runs.
      const title = unique(PREFIX);
      expect(await run(editor, { name: ABILITY.create, input: { title } }, recorder(true).approver)).toMatchObject({ ok: true });
      expect(await productsTitled(title)).toHaveLength(1);
    });
  });

  it('dry_run: what would run and with what, the input and the permission checked by the site, nothing run', async () => {
    const title = unique(PREFIX);
    const preview = await callOk('run-ability', { name: ABILITY.create, input: { title }, dry_run: true });
    expect(preview).toMatchObject({
      dry_run: true,
      needs_approval: true,
      ability: ABILITY.create,
      method: 'POST',
      input: { title },
      input_valid: true,
      permission: expect.stringMatching(/^allowed for /),
      undo: expect.stringMatching(/cannot be undone/),
    });
    // Without the companion plugin WordPress has no dry run: the permission is said not to be checked.
    const bare = await invoke({ tool: 'run-ability', params: { name: ABILITY.create, input: { title }, dry_run: true } }, withoutCompanion(createContext(testSite())));
    expect(bare).toMatchObject({ ok: true, result: { permission: expect.stringMatching(/^not checked/) } });
    expect(await productsTitled(title)).toEqual([]);
  });

  it('the change store holds the intent before the ability runs (the run held at the proxy)', async () => {
    const proxy = await new FaultProxy(testSite().url).start();
    try {
      proxy.inject({ method: 'POST', path: /\/wp-abilities\/v1\/abilities\/cms-sandbox\/product-create\/run/, fault: { kind: 'hold' } });
      const { context, journal } = storeContext({ url: proxy.url });
      const title = unique(PREFIX);
      const running = run(context, { name: ABILITY.create, input: { title } }, recorder(true).approver);
      await proxy.whenHeld();
      expect(await journal.entries()).toMatchObject([{ tool: 'cms-sandbox_product-create', status: 'pending', reversible: false }]);
      expect(await productsTitled(title)).toEqual([]);
      proxy.release();
      expect(await running).toMatchObject({ ok: true });
      const [done] = await journal.entries();
      expect(done?.status).not.toBe('pending');
      expect(done?.summary).toContain(title);
      expect(await productsTitled(title)).toHaveLength(1);
    } finally {
      await proxy.stop();
    }
  });

  it('the audit log has a line per run that is not read-only', async () => {
    const file = path.join(storeContext().dir, 'audit.jsonl');
    const { context } = storeContext({ auditLog: file });
    const title = unique(PREFIX);
    await run(context, { name: ABILITY.query, input: {} }, recorder(true).approver);
    await run(context, { name: ABILITY.create, input: { title } }, recorder(true).approver);
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ tool: 'cms-sandbox_product-create', user: testSite().username, params: { input: { title } }, ok: true });
  });
});

/** The editor's application password, from its context's secrets (the test made it). */
function secretOf(context: ToolContext): string {
  return (context.secrets ?? [])[0] as string;
}
