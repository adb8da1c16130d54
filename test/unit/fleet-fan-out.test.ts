import { describe, expect, it } from 'vitest';
import { fanOutSites } from '../../src/call/fleet-write.js';

// The agent across sites (#38): Ctrl-C (the call's signal) starts no new site; the answer says
// which sites ran and which did not, by name.
describe('a call across sites, stopped', () => {
  it('sites under way finish, those not started answer not_started by name, nothing run there', async () => {
    const controller = new AbortController();
    const ran: string[] = [];
    const sites = ['one', 'two', 'three', 'four'].map((name) => ({ name }));
    const results = await fanOutSites(
      sites,
      async (site) => {
        ran.push(site.name);
        // The person presses Ctrl-C while the second site's call is under way.
        if (site.name === 'two') controller.abort();
        return { ok: true, result: { site: site.name } };
      },
      1,
      controller.signal,
    );
    expect(ran).toEqual(['one', 'two']);
    expect(results.map((r) => [r.site, r.ok])).toEqual([
      ['one', true],
      ['two', true],
      ['three', false],
      ['four', false],
    ]);
    const notStarted = results.filter((r) => !r.ok);
    for (const r of notStarted) {
      if (r.ok) continue;
      expect(r.error.code).toBe('not_started');
      expect(r.error.message).toContain(`Stopped before ${r.site} was started: nothing was changed there.`);
    }
  });

  it('without a signal every site runs, each failure its own', async () => {
    const results = await fanOutSites(
      [{ name: 'a' }, { name: 'b' }],
      async (site) => (site.name === 'a' ? { ok: false, error: { code: 'ECONNREFUSED', message: 'down' } } : { ok: true, result: 1 }),
      8,
    );
    expect(results).toEqual([
      { site: 'a', ok: false, error: { code: 'ECONNREFUSED', message: 'down' } },
      { site: 'b', ok: true, result: 1 },
    ]);
  });
});
