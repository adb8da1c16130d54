import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../src/config.js';
import { type Fleet as CallFleet, fleetTools, runOnFleet, tools } from '../../src/call/index.js';
import { runCli } from '../helpers/cli.js';
import { type Fleet, startFleet } from '../helpers/fleet.js';
import { newIdentity, newPassword } from '../wordpress/users/helpers.js';

/**
 * #52.1 on several real sites: a login is looked up on each site among its own accounts (the same
 * login has a different id on each), by `invoke --sites` and by a fleet tool call of the model;
 * a site where the name is unknown answers name_not_found there and the others are written.
 */
let fleet: Fleet;
beforeAll(async () => {
  fleet = await startFleet();
  const { writeProfiles } = await import('../../src/sites/store.js');
  const profiles = fleet.sites.map((s) => ({ name: s.name, url: s.url, username: s.username, appPassword: s.appPassword, groups: ['real'] }));
  writeProfiles({ version: 1, sites: profiles }, path.join(fleet.configHome, 'cms-admin', 'sites.json'));
}, 300_000);
afterAll(() => fleet?.stop());

/**
 * The same login on the given sites, with a different id on each: on every site but the first,
 * extra accounts first until the next id (ids count up) is none an earlier site gave the login —
 * whatever earlier files did to each site's count.
 */
async function sameLogin(sites: string[]) {
  const { username, email } = newIdentity('fleetname');
  const ids: Record<string, number> = {};
  for (const [i, site] of sites.entries()) {
    if (i > 0) {
      let filler: number;
      do {
        const other = newIdentity('filler');
        filler = (await fleet.client(site).post<{ id: number }>('/wp/v2/users', { ...other, password: newPassword(), roles: ['subscriber'] })).id;
      } while (Object.values(ids).includes(filler + 1));
    }
    ids[site] = (await fleet.client(site).post<{ id: number }>('/wp/v2/users', { username, email, password: newPassword(), roles: ['subscriber'] })).id;
  }
  return { username, ids };
}
const rolesOn = async (site: string, id: number) => (await fleet.client(site).get<{ roles: string[] }>(`/wp/v2/users/${id}`, { context: 'edit' })).roles;

describe('names on several sites', { timeout: 300_000 }, () => {
  it('invoke --sites one,two with a login: each site writes its own account; a site without it is name_not_found, exit 1', async () => {
    const [one, two, three] = fleet.sites.map((s) => s.name) as [string, string, string];
    const { username, ids } = await sameLogin([one, two]);
    expect(ids[one]).not.toBe(ids[two]);
    const run = await runCli(['invoke', '--sites', `${one},${two},${three}`, '--json', 'set-user-role', `id=${username}`, 'role=author'], { env: fleet.env() });
    expect(run.code, run.stdout + run.stderr).toBe(1);
    const bySite = Object.fromEntries(run.stdout.trim().split('\n').map((l) => JSON.parse(l) as { site: string; ok: boolean; error?: { code: string } }).map((o) => [o.site, o]));
    expect(bySite[one]!.ok && bySite[two]!.ok).toBe(true);
    expect(bySite[three]!.error!.code).toBe('name_not_found');
    expect(await rolesOn(one, ids[one]!)).toEqual(['author']);
    expect(await rolesOn(two, ids[two]!)).toEqual(['author']);
  });

  it('the model’s fleet call with a login on two sites: one question, each site its own id, read back', async () => {
    const [one, two] = fleet.sites.map((s) => s.name) as [string, string];
    const { username, ids } = await sameLogin([one, two]);
    const callFleet: CallFleet = {
      sites: fleet.sites.slice(0, 2).map((s) => ({ name: s.name, url: s.url, username: s.username, groups: [], context: createContext(s) })),
    };
    const asked: string[] = [];
    const tool = fleetTools(tools).find((t) => t.name === 'set-user-role')!;
    const out = await runOnFleet(tool, callFleet, { id: username, role: 'editor', site: `${one},${two}` }, async (request) => {
      asked.push(request.summary);
      return { approved: true };
    });
    expect(out.ok, JSON.stringify(out)).toBe(true);
    expect((out as { result: { sites: Array<{ site: string; ok: boolean }> } }).result.sites.map((s) => [s.site, s.ok])).toEqual([
      [one, true],
      [two, true],
    ]);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain(username);
    expect(await rolesOn(one, ids[one]!)).toEqual(['editor']);
    expect(await rolesOn(two, ids[two]!)).toEqual(['editor']);
  });
});
