import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import { networkState, type TestNetwork, testNetwork } from '../../helpers/network.js';

/**
 * #60.4 on a network: `add-user-to-site user_id=ana` answered name_not_found for an account that
 * is not yet a member of the site (the main site's /wp/v2/users lists its own members only) — the
 * case the tool exists for. The network tools look a name up among the network's accounts: by
 * login, by email (plugin 0.7.0's network/accounts), and a login that is another account's email
 * is refused as ambiguous (#58.4). Run as a new user would: `cms-admin invoke` on the network.
 */
let net: TestNetwork;
let env: Record<string, string | undefined>;
beforeAll(async () => {
  net = await testNetwork();
  env = { CMS_URL: net.url, CMS_USERNAME: net.username, CMS_APP_PASSWORD: net.appPassword, CMS_SITE: undefined };
});

const invoke = async (...words: string[]) => {
  const run = await runCli(['invoke', ...words], { env });
  return { code: run.code, out: JSON.parse(run.stdout) as { ok: boolean; error?: { code: string; message: string; details?: { candidates?: number[] } } } };
};

describe('names where a network tool takes a user id', () => {
  it('add-user-to-site user_id=ana (not a member of the main site) adds ana; by email too; read back', async () => {
    expect((await networkState(net)).ana?.sites).toEqual({ news: ['contributor'] });
    const byLogin = await invoke('add-user-to-site', 'user_id=ana', 'site=sports', 'role=author');
    expect(byLogin.code, JSON.stringify(byLogin.out)).toBe(0);
    expect((await networkState(net)).ana?.sites).toEqual({ news: ['contributor'], sports: ['author'] });
    const byEmail = await invoke('add-user-to-site', 'user_id=dave@example.com', 'site=arts', 'role=author');
    expect(byEmail.code, JSON.stringify(byEmail.out)).toBe(0);
    expect((await networkState(net)).dave?.sites.arts).toEqual(['author']);
    const removed = await invoke('remove-user-from-site', 'user_id=ana', 'site=sports');
    expect(removed.code, JSON.stringify(removed.out)).toBe(0);
    expect((await networkState(net)).ana?.sites).toEqual({ news: ['contributor'] });
  });

  it('a login that is another account’s email is name_ambiguous on the network too; nothing changes', async () => {
    // An account whose login is bob's email address.
    const twin = JSON.parse(await net.php(`echo json_encode(wpmu_create_user('bob@example.com', wp_generate_password(24), 'twin@example.org'));`)) as number;
    const before = await networkState(net);
    const out = await invoke('add-user-to-site', 'user_id=bob@example.com', 'site=sports', 'role=author');
    expect(out.code).toBe(1);
    expect(out.out.error?.code).toBe('name_ambiguous');
    expect(out.out.error?.details?.candidates?.sort()).toEqual([net.users.bob, twin].sort());
    expect(await networkState(net)).toEqual(before);
  });
});
