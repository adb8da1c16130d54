import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../../src/config.js';
import { invoke, type ToolContext, type ToolOutcome } from '../../../src/call/index.js';
import { recordOutput } from '../../helpers/output-log.js';
import { recordingApprover } from '../../helpers/network.js';
import { testContext, testSite, unique } from '../../helpers/site.js';
import { restAs } from './browser.js';
import { type Fixture, makeAppPassword, makeUser, readUser, wpPhp } from './helpers.js';

/**
 * Issue #58, findings 1, 2, 3 and 9, each as the issue writes it, on the real site; WordPress read
 * back with PHP. The attacker is an editor with her own grants list_users, promote_users,
 * edit_users, create_users and her own application password.
 */
type Who = Fixture & { appPassword: string; context: ToolContext };
let mallory: Who;
let victim: Who;
let accomplice: Fixture;
/** The administrator's capabilities the attacker lacks, read from WordPress (manage_options, delete_users, …). */
let lacking: string[] = [];
const made: string[] = [];

async function person(prefix: string, roles: string[], grants: string[] = []): Promise<Who> {
  const user = await makeUser({ prefix, roles });
  if (grants.length) await wpPhp(`$u = get_userdata(${user.id}); foreach (${JSON.stringify(grants)} as $c) { $u->add_cap($c); }`);
  const appPassword = await makeAppPassword(user.id);
  return { ...user, appPassword, context: createContext({ url: testSite().url, username: user.username, appPassword }) };
}

async function as(who: Who, tool: string, params: Record<string, unknown>, approve = true) {
  const approver = recordingApprover(approve);
  const outcome: ToolOutcome = await invoke({ tool, params }, who.context, {}, { approver });
  recordOutput(JSON.stringify(outcome));
  return { outcome, asked: approver.asked.map((q) => q.summary) };
}

/** What WordPress holds: an account's roles, email and the capabilities it really has. */
async function account(id: number, caps: string[] = ['manage_options', 'promote_users', 'edit_users']) {
  return JSON.parse(
    await wpPhp(`$u = get_userdata(${id}); echo json_encode(['roles' => array_values($u->roles), 'email' => $u->user_email, 'can' => array_values(array_filter(${JSON.stringify(caps)}, fn ($c) => user_can($u, $c)))]);`),
  ) as { roles: string[]; email: string; can: string[] };
}
const roleMap = async (slug: string) =>
  JSON.parse(await wpPhp(`$r = get_role('${slug}'); echo json_encode($r ? $r->capabilities : null);`)) as Record<string, boolean> | null;
/** What an attack that got through (before the fix) changed, put back so the next test starts as the first. */
const restore = () =>
  wpPhp(`get_userdata(${mallory.id})->set_role('editor'); get_userdata(${accomplice.id})->set_role('subscriber'); wp_update_user(['ID' => ${victim.id}, 'user_email' => '${victim.email}']);`);
const removeRoles = (slugs: string[]) => wpPhp(`foreach (${JSON.stringify(slugs)} as $s) { if ($s !== 'administrator') remove_role($s); }`);

beforeAll(async () => {
  mallory = await person('mallory', ['editor'], ['list_users', 'promote_users', 'edit_users', 'create_users']);
  victim = await person('victim', ['administrator']);
  accomplice = await makeUser({ prefix: 'accomplice' });
  lacking = JSON.parse(
    await wpPhp(`$m = get_userdata(${mallory.id}); echo json_encode(array_values(array_filter(array_keys(array_filter(get_role('administrator')->capabilities)), fn ($c) => !preg_match('/^level_/', $c) && !user_can($m, $c))));`),
  );
});
afterAll(async () => {
  await removeRoles([...lacking, ...made]);
});

describe('finding 1: roles named after capabilities', () => {
  it('the companion plugin refuses every such slug; core then still refuses administrator and the administrator’s email', async () => {
    expect(lacking).toEqual(expect.arrayContaining(['manage_options', 'delete_users', 'activate_plugins', 'edit_plugins', 'install_plugins', 'update_core']));
    expect(lacking.length).toBeGreaterThanOrEqual(15);
    try {
      // Every PUT first, then the two requests, as the attack goes (before the fix all answered 200).
      const puts = [];
      for (const cap of lacking) puts.push([cap, await restAs(mallory, 'PUT', `/cms-admin/v1/roles/${cap}`, { name: cap, capabilities: { read: true } })] as const);
      const promoted = await restAs(mallory, 'POST', `/wp/v2/users/${mallory.id}`, { roles: ['administrator'] });
      const email = `${unique('mallory').replace(/\W/g, '')}@example.net`;
      const stolen = await restAs(mallory, 'POST', `/wp/v2/users/${victim.id}`, { email });
      expect((await account(victim.id)).email).toBe(victim.email);
      expect(await account(mallory.id)).toMatchObject({ roles: ['editor'], can: ['promote_users', 'edit_users'] });
      for (const [cap, put] of puts) expect(put, cap).toMatchObject({ status: 400, body: { code: 'cms_admin_role_slug_is_capability' } });
      expect(promoted).toMatchObject({ status: 403, body: { code: 'rest_user_invalid_role' } });
      expect(stolen).toMatchObject({ status: 403 });
      for (const cap of lacking) expect(await roleMap(cap), cap).toBeNull();
    } finally {
      await removeRoles(lacking);
      await restore();
    }
  });

  it('roles made so before the fix are judged by what they grant: holding one grants the capability', async () => {
    await wpPhp(`foreach (${JSON.stringify(lacking)} as $c) { add_role($c, $c, ['read' => true]); }`);
    try {
      expect(await restAs(mallory, 'POST', `/wp/v2/users/${mallory.id}`, { roles: ['administrator'] })).toMatchObject({ status: 403, body: { code: 'rest_user_invalid_role' } });
      expect(await restAs(mallory, 'POST', `/wp/v2/users/${victim.id}`, { email: `x${victim.id}@example.net` })).toMatchObject({ status: 403 });
      // The role `manage_options` grants manage_options: not hers to give.
      expect(await restAs(mallory, 'POST', `/wp/v2/users/${accomplice.id}`, { roles: ['manage_options'] })).toMatchObject({ status: 403, body: { code: 'rest_user_invalid_role' } });
      const { outcome, asked } = await as(mallory, 'set-user-role', { id: accomplice.id, role: 'administrator' });
      expect(outcome).toMatchObject({ ok: false, error: { code: 'role_stronger_than_caller', message: expect.stringContaining('manage_options') } });
      expect(asked).toEqual([]);
      const named = await as(mallory, 'set-user-role', { id: accomplice.id, role: 'manage_options' });
      expect(named.outcome).toMatchObject({ ok: false, error: { code: 'role_stronger_than_caller' } });
      expect(named.asked).toEqual([]);
      expect(await account(mallory.id)).toMatchObject({ roles: ['editor'] });
      expect(await account(accomplice.id)).toMatchObject({ roles: ['subscriber'], can: [] });
      expect((await account(victim.id)).email).toBe(victim.email);
    } finally {
      await removeRoles(lacking);
      await restore();
    }
  });

  it('through the toolkit: create-role slug=manage_options is refused before anyone is asked, whoever asks', async () => {
    const slugs = ['manage_options', 'level_10', 'edit_user', 'create_sites'];
    try {
      for (const who of [mallory, { context: testContext() } as Who]) {
        const { outcome, asked } = await as(who, 'create-role', { slug: 'manage_options', name: 'Harmless', capabilities: ['read'] });
        expect(outcome).toMatchObject({ ok: false, error: { code: 'role_slug_is_capability', hint: expect.stringContaining('slug') } });
        expect(asked).toEqual([]);
      }
      for (const slug of slugs.slice(1)) {
        expect((await as(mallory, 'create-role', { slug, name: 'x', capabilities: ['read'] })).outcome).toMatchObject({ ok: false, error: { code: 'role_slug_is_capability' } });
      }
      for (const slug of slugs) expect(await roleMap(slug), slug).toBeNull();
    } finally {
      await removeRoles(slugs);
    }
  });
});

describe('finding 2: denials on a weak role', () => {
  it('an author role with denials, held by two administrators, is refused; they keep manage_options and promote_users', async () => {
    const admins = [await makeUser({ prefix: 'adminauthor', roles: ['administrator', 'author'] }), await makeUser({ prefix: 'adminauthor', roles: ['administrator', 'author'] })];
    const before = await roleMap('author');
    const own = JSON.parse(await wpPhp(`echo json_encode(array_filter(get_userdata(${mallory.id})->allcaps, fn ($v, $k) => $v && !get_role($k), ARRAY_FILTER_USE_BOTH));`));
    const denials = { manage_options: false, promote_users: false, edit_users: false, delete_users: false, create_users: false };
    const put = await restAs(mallory, 'PUT', '/cms-admin/v1/roles/author', { capabilities: { ...own, ...denials } });
    expect(put).toMatchObject({ status: 403 });
    expect(['cms_admin_account_stronger_than_caller', 'cms_admin_capability_beyond_caller']).toContain(put.body.code);
    expect(await roleMap('author')).toEqual(before);
    for (const admin of admins) expect(await account(admin.id), admin.username).toMatchObject({ can: ['manage_options', 'promote_users', 'edit_users'] });
    // The toolkit says so first: a role a stronger account holds is not hers to change.
    const { outcome, asked } = await as(mallory, 'update-role', { slug: 'author', remove_capabilities: ['upload_files'] });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'account_stronger_than_caller' } });
    expect(asked).toEqual([]);
    expect(await roleMap('author')).toEqual(before);
  });

  it('an administrator denying herself manage_options through a role she holds is refused: she keeps it', async () => {
    const slug = `deny_${unique('own').replace(/\W/g, '').toLowerCase()}`;
    made.push(slug);
    await wpPhp(`add_role('${slug}', 'Own', ['read' => true]); get_userdata(${victim.id})->add_role('${slug}');`);
    const put = await restAs(victim, 'PUT', `/cms-admin/v1/roles/${slug}`, { capabilities: { read: true, manage_options: false } });
    expect(put).toMatchObject({ status: 403, body: { code: 'cms_admin_cannot_change_own_capabilities' } });
    expect(await roleMap(slug)).toEqual({ read: true });
    expect((await account(victim.id)).can).toContain('manage_options');
    await wpPhp(`get_userdata(${victim.id})->remove_role('${slug}');`);
  });

  it('the last enabled administrator giving herself a role that denies manage_options through core’s route is refused', async () => {
    const slug = `deny_${unique('core').replace(/\W/g, '').toLowerCase()}`;
    made.push(slug);
    await wpPhp(`add_role('${slug}', 'Core deny', ['read' => true, 'edit_users' => true, 'manage_options' => false]);`);
    // Every other administrator disabled for the moment (PHP, not the tools): she is the last one.
    const others = JSON.parse(
      await wpPhp(`$ids = array_values(array_filter(cms_admin_enabled_administrators(), fn ($id) => $id !== ${victim.id})); foreach ($ids as $id) { update_user_meta($id, '_cms_admin_disabled', ['reason' => 'test', 'disabled_at' => gmdate('c'), 'disabled_by' => 0]); } echo json_encode($ids);`),
    ) as number[];
    try {
      const answer = await restAs(victim, 'POST', '/wp/v2/users/me', { roles: ['administrator', slug] });
      expect(answer).toMatchObject({ status: 409, body: { code: 'cms_admin_last_administrator' } });
      const after = await account(victim.id);
      expect(after.roles).not.toContain(slug);
      expect(after.can).toEqual(['manage_options', 'promote_users', 'edit_users']);
    } finally {
      await wpPhp(`foreach (${JSON.stringify(others)} as $id) { delete_user_meta($id, '_cms_admin_disabled'); } get_userdata(${victim.id})->set_role('administrator');`);
    }
  });
});

describe('finding 3: powers in plain words, levels included', () => {
  it('level_10 on her own role or on another account: refused to the editor, asked of the administrator in words', async () => {
    const editor = await roleMap('editor');
    const own = await as(mallory, 'update-role', { slug: 'editor', add_capabilities: ['level_10'] });
    expect(own.outcome).toMatchObject({ ok: false, error: { code: 'capability_beyond_caller', message: expect.stringContaining('level_10') } });
    expect(own.asked).toEqual([]);
    expect(await restAs(mallory, 'PUT', '/cms-admin/v1/roles/editor', { capabilities: { ...editor, level_10: true } })).toMatchObject({ status: 403 });
    const other = await as(mallory, 'update-user-capabilities', { user_id: accomplice.id, add_capabilities: ['level_10'] });
    expect(other.outcome).toMatchObject({ ok: false, error: { code: 'capability_beyond_caller' } });
    expect(await restAs(mallory, 'PUT', `/cms-admin/v1/users/${accomplice.id}/capabilities`, { capabilities: { level_10: true } })).toMatchObject({ status: 403 });
    const admin = await as({ context: testContext() } as Who, 'update-user-capabilities', { user_id: accomplice.id, add_capabilities: ['level_10'] }, false);
    expect(admin.asked).toEqual([expect.stringContaining('pass old plugins’ administrator checks (user level 10) (level_10)')]);
    expect(admin.outcome).toMatchObject({ ok: false, error: { code: 'rejected_by_user' } });
    expect(await roleMap('editor')).toEqual(editor);
    expect((await readUser(accomplice.id)).capabilities.level_10).toBeUndefined();
  });
});

describe('finding 9: create-role with explicit denials', () => {
  it('an administrator creates one (asked, naming the denial); the editor may deny only what she holds', async () => {
    const slug = `denier_${unique('r').replace(/\W/g, '').toLowerCase()}`;
    made.push(slug, `${slug}_m`, `${slug}_e`);
    const admin = await as({ context: testContext() } as Who, 'create-role', { slug, name: 'Denier', capabilities: ['read', 'edit_posts'], deny_capabilities: ['manage_options', 'edit_others_posts'] });
    expect(admin.asked).toEqual([expect.stringMatching(/denying edit_others_posts, manage_options.*it denies: change every site setting \(manage_options\)/)]);
    expect(admin.outcome).toMatchObject({ ok: true, result: { role: slug, denied: ['edit_others_posts', 'manage_options'] } });
    expect(await roleMap(slug)).toEqual({ read: true, edit_posts: true, manage_options: false, edit_others_posts: false });
    // Given beside administrator, it would take manage_options away: asked, in words; declined, nothing.
    const other = await makeUser({ prefix: 'admindenied', roles: ['administrator'] });
    const add = await as({ context: testContext() } as Who, 'set-user-role', { id: other.id, add_roles: [slug] }, false);
    expect(add.asked).toEqual([expect.stringContaining('its new role denies: change every site setting (manage_options)')]);
    expect(await account(other.id)).toMatchObject({ roles: ['administrator'], can: ['manage_options', 'promote_users', 'edit_users'] });

    const weak = await as(mallory, 'create-role', { slug: `${slug}_m`, name: 'Mine', capabilities: ['read'], deny_capabilities: ['manage_options'] });
    expect(weak.outcome).toMatchObject({ ok: false, error: { code: 'capability_beyond_caller', message: expect.stringContaining('manage_options') } });
    expect(weak.asked).toEqual([]);
    expect(await roleMap(`${slug}_m`)).toBeNull();
    expect(await restAs(mallory, 'PUT', `/cms-admin/v1/roles/${slug}_m`, { name: 'Mine', capabilities: { read: true, manage_options: false } })).toMatchObject({
      status: 403,
      body: { code: 'cms_admin_capability_beyond_caller' },
    });
    const held = await as(mallory, 'create-role', { slug: `${slug}_e`, name: 'Held', capabilities: ['read'], deny_capabilities: ['edit_others_posts'] });
    expect(held.outcome).toMatchObject({ ok: true });
    expect(await roleMap(`${slug}_e`)).toEqual({ read: true, edit_others_posts: false });
  });
});

