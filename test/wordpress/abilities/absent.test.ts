import { describe, expect, it } from 'vitest';
import { abilityTools, hasAbilitiesApi, ToolsetSession, tools } from '../../../src/call/index.js';
import { call, testContext, wordPressAtLeast } from '../../helpers/site.js';
import { toolsOnSite } from './helpers.js';

/**
 * Issue #62 on WordPress before 6.9 (CI's 6.1 and 6.8 runs; `CMS_SANDBOX_WP=6.1`): the site has no
 * Abilities API, so the abilities toolset is absent from a session and enable-toolset says why;
 * each tool, asked anyway (invoke reaches every tool), refuses saying why, its dry run alike.
 */
describe.skipIf(wordPressAtLeast('6.9'))('a site without the Abilities API', () => {
  it('the toolset is absent, and enable-toolset says why', async () => {
    const abilitiesApi = await hasAbilitiesApi(testContext().client);
    expect(abilitiesApi).toBe(false);
    const session = new ToolsetSession(tools, { abilitiesApi });
    expect(session.offered()).not.toContain('abilities');
    const outcome = session.enable({ toolset: 'abilities' });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'toolset_unavailable', message: expect.stringContaining('WordPress 6.9 added it') } });
    expect(session.tools().map((t) => t.name)).not.toContain('run-ability');
    // The list says why (`cms-admin tools --site NAME`).
    const summary = await toolsOnSite();
    expect(summary).toContain('No abilities toolset: the site has no Abilities API (WordPress 6.9 added it');
    expect(summary).not.toMatch(/enable-toolset adds [^.]*abilities/);
  });

  it('each tool refuses saying why; a dry run refuses as the call does', async () => {
    for (const [tool, params] of [
      ['find-abilities', {}],
      ['describe-ability', { name: 'core/get-site-info' }],
      ['run-ability', { name: 'core/get-site-info' }],
    ] as const) {
      const outcome = await call(tool, params);
      expect(outcome, tool).toMatchObject({ ok: false, error: { code: 'abilities_unavailable', message: expect.stringContaining('WordPress 6.9 added it') } });
    }
    const dry = await call('run-ability', { name: 'cms-sandbox/product-create', input: { title: 'x' }, dry_run: true });
    expect(dry).toEqual(await call('run-ability', { name: 'cms-sandbox/product-create', input: { title: 'x' } }));
  });

  it('the abilities option refuses to start, saying why', async () => {
    await expect(abilityTools([testContext()], ['woocommerce/*'])).rejects.toMatchObject({ code: 'abilities_unavailable' });
  });
});
