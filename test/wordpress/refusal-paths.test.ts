import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createContext } from '../../src/config.js';
import { memoryJournal } from '../../src/undo/journal.js';
import type { ToolContext, ToolOutcome } from '../../src/call/index.js';
import { DOC, documentedCodes } from '../helpers/error-codes.js';
import { callNetwork, networkState, type TestNetwork, testNetwork } from '../helpers/network.js';
import { callIn, restOnlyContext, testContext, testSite, unique, wp } from '../helpers/site.js';
import { makeCategory, makePosts, makeTag, readTerm } from './taxonomy/fixtures.js';
import { makeAppPassword, makeUser, readUser, wpPhp } from './users/helpers.js';

/**
 * #52.10: one error code and one hint per refusal on every path. Every code docs/error-handling.md
 * lists is either WALKED here — provoked on the real sandbox as a dry run and as a real call (no
 * review: `invoke`), both answering the same code and the same non-empty hint, the site read back
 * unchanged after each — or listed in NOT_WALKED with the reason a dry run cannot meet it. A code
 * the doc gains without either fails the first test.
 */

interface Walk {
  /** Where it runs: the single-site sandbox (default) or the test network. */
  on?: 'network';
  /** Makes the fixture; returns the call and a reading of what the call would change. */
  setup(): Promise<{
    tool: string;
    params: Record<string, unknown>;
    context?: ToolContext;
    read: () => Promise<unknown>;
    /** Puts back what the fixture changed that other walks would see (the network is shared by the file). */
    cleanup?: () => Promise<unknown>;
  }>;
}

let me: { id: number; username: string };
let net: TestNetwork;
let manager: ToolContext;

const MANAGER_ROLE = 'cms_test_refusal_manager';
const userState = (id: number) => async () => {
  const u = await readUser(id).catch((err: { code?: string }) => err.code);
  const disabled = (await wpPhp(`echo json_encode(get_user_meta(${id}));`)).trim();
  return { u, disabled };
};
const termsNamed = (route: string, name: string) => () =>
  wp().get<unknown[]>(`/wp/v2/${route}`, { search: name, hide_empty: false, _fields: 'id,name,parent' });
const usersNamed = (search: string) => () =>
  wp().get<unknown[]>('/wp/v2/users', { search, context: 'edit', _fields: 'id,username,email,roles' });
const roles = () => wpPhp('echo json_encode(wp_roles()->roles);');
const appPasswords = (id: number) => () => wp().get<unknown[]>(`/wp/v2/users/${id}/application-passwords`, { _fields: 'uuid,name' });
const sessions = (id: number) => () => wpPhp(`echo count(WP_Session_Tokens::get_instance(${id})->get_all());`);

const WALKED: Record<string, Walk> = {
  // ---- the site's data
  name_not_found: {
    async setup() {
      const login = unique('nobody').toLowerCase().replace(/[^a-z0-9]+/g, '_');
      return { tool: 'disable-user', params: { id: login }, read: usersNamed('nobody') };
    },
  },
  term_exists: {
    async setup() {
      const cat = await makeCategory('Walk exists');
      return { tool: 'create-category', params: { name: cat.name }, read: termsNamed('categories', cat.name) };
    },
  },
  term_in_use: {
    async setup() {
      const cat = await makeCategory('Walk in use');
      await makePosts([{ categories: [cat.id] }]);
      return { tool: 'delete-category', params: { id: cat.id }, read: () => readTerm('categories', cat.id) };
    },
  },
  parent_not_found: {
    async setup() {
      const name = unique('Walk orphan');
      return { tool: 'create-category', params: { name, parent: 98765432 }, read: termsNamed('categories', name) };
    },
  },
  parent_cycle: {
    async setup() {
      const parent = await makeCategory('Walk cycle parent');
      const child = await makeCategory('Walk cycle child', parent.id);
      return {
        tool: 'update-category',
        params: { id: parent.id, parent: child.id },
        read: async () => [await readTerm('categories', parent.id), await readTerm('categories', child.id)],
      };
    },
  },
  not_hierarchical: {
    async setup() {
      const tag = await makeTag('Walk flat');
      const name = unique('Walk flat child');
      return { tool: 'create-term', params: { taxonomy: 'post_tag', name, parent: tag.id }, read: termsNamed('tags', name) };
    },
  },
  taxonomy_not_found: {
    async setup() {
      const name = unique('Walk no tax');
      return { tool: 'create-term', params: { taxonomy: 'no_such_taxonomy', name }, read: termsNamed('categories', name) };
    },
  },
  cannot_delete_default_category: {
    async setup() {
      const id = Number((await wpPhp(`echo get_option('default_category');`)).trim());
      return { tool: 'delete-category', params: { id, force: true }, read: () => readTerm('categories', id) };
    },
  },
  same_taxonomy: {
    async setup() {
      const tag = await makeTag('Walk same tax');
      return {
        tool: 'migrate-terms',
        params: { from_taxonomy: 'post_tag', to_taxonomy: 'post_tag', term_ids: [tag.id] },
        read: () => readTerm('tags', tag.id),
      };
    },
  },
  meta_not_registered: {
    async setup() {
      const name = unique('Walk meta');
      return { tool: 'create-category', params: { name, meta: ['no_such_key=x'] }, read: termsNamed('categories', name) };
    },
  },
  unknown_role: {
    async setup() {
      const user = await makeUser({ prefix: 'walkrole' });
      return { tool: 'set-user-role', params: { id: user.id, role: 'no_such_role' }, read: userState(user.id) };
    },
  },
  no_changes: {
    async setup() {
      const user = await makeUser({ prefix: 'walknochange' });
      return { tool: 'update-user', params: { id: user.id }, read: userState(user.id) };
    },
  },
  role_exists: {
    async setup() {
      return { tool: 'create-role', params: { slug: 'editor', name: 'Another editor', clone_from: 'author' }, read: roles };
    },
  },
  invalid_capability: {
    async setup() {
      // A role's name is no capability (the plugin's roles editor refuses it).
      const slug = `walk_${randomUUID().slice(0, 8)}`;
      return { tool: 'create-role', params: { slug, name: 'Walk caps', capabilities: ['read', 'editor'] }, read: roles };
    },
  },
  role_slug_is_capability: {
    async setup() {
      // #58: a role named after a capability would give it to every account holding it.
      return { tool: 'create-role', params: { slug: 'manage_options', name: 'Harmless', capabilities: ['read'] }, read: roles };
    },
  },
  invalid_date: {
    async setup() {
      return { tool: 'prune-terms', params: { taxonomy: 'post_tag', older_than: 'not a date' }, read: () => wp().get<unknown[]>('/wp/v2/tags', { per_page: 100, _fields: 'id' }) };
    },
  },
  user_exists: {
    async setup() {
      const user = await makeUser({ prefix: 'walkexists' });
      const email = `${unique('walkother').toLowerCase().replace(/[^a-z0-9]+/g, '_')}@example.org`;
      return { tool: 'create-user', params: { username: user.username, email, delivery: 'email' }, read: usersNamed('walk') };
    },
  },
  email_in_use: {
    async setup() {
      const user = await makeUser({ prefix: 'walkemail' });
      const username = unique('walkfresh').toLowerCase().replace(/[^a-z0-9]+/g, '_');
      return { tool: 'create-user', params: { username, email: user.email, delivery: 'email' }, read: usersNamed('walk') };
    },
  },
  invalid_email: {
    async setup() {
      const user = await makeUser({ prefix: 'walkbademail' });
      return { tool: 'update-user', params: { id: user.id, email: 'not-an-address' }, read: userState(user.id) };
    },
  },
  weak_password: {
    async setup() {
      const user = await makeUser({ prefix: 'walkweak' });
      return { tool: 'update-user', params: { id: user.id, password: 'abc' }, read: userState(user.id) };
    },
  },
  links_not_in_results: {
    async setup() {
      const login = unique('walklinks').toLowerCase().replace(/[^a-z0-9]+/g, '_');
      // An app that takes secrets into results (secretsTo: 'result'): links for many accounts never go there.
      const context: ToolContext = { ...testContext(), secretsTo: 'result' };
      const csv = `user_login,user_email\n${login},${login}@example.org\n`;
      return { tool: 'import-users', params: { csv, delivery: 'link' }, context, read: usersNamed(login) };
    },
  },
  app_password_not_found: {
    async setup() {
      const user = await makeUser({ prefix: 'walkapp' });
      await makeAppPassword(user.id);
      return { tool: 'revoke-app-passwords', params: { user_id: user.id, uuid: randomUUID() }, read: appPasswords(user.id) };
    },
  },
  invalid_csv: {
    async setup() {
      return { tool: 'import-users', params: { csv: 'nickname,colour\nann,red\n' }, read: usersNamed('ann') };
    },
  },
  password_column: {
    async setup() {
      const login = unique('walkcsv').toLowerCase().replace(/[^a-z0-9]+/g, '_');
      const csv = `user_login,user_email,user_pass\n${login},${login}@example.org,Pw-not-a-real-one-12345\n`;
      return { tool: 'import-users', params: { csv }, read: usersNamed(login) };
    },
  },

  // ---- undo (undo-change: the change tools' own context, a journal of its own or none)
  journal_off: {
    async setup() {
      const context: ToolContext = { ...testContext(), journal: undefined };
      return { tool: 'undo-change', params: {}, context, read: roles };
    },
  },
  nothing_to_undo: {
    async setup() {
      const context: ToolContext = { ...testContext(), journal: memoryJournal() };
      return { tool: 'undo-change', params: {}, context, read: roles };
    },
  },
  change_not_found: {
    async setup() {
      const context: ToolContext = { ...testContext(), journal: memoryJournal() };
      return { tool: 'undo-change', params: { change_id: 'c-no-such-change' }, context, read: roles };
    },
  },

  // ---- refusals
  cannot_disable_self: {
    async setup() {
      return { tool: 'disable-user', params: { id: me.id }, read: userState(me.id) };
    },
  },
  cannot_demote_self: {
    async setup() {
      return { tool: 'set-user-role', params: { id: me.id, role: 'editor' }, read: userState(me.id) };
    },
  },
  cannot_delete_self: {
    async setup() {
      const heir = await makeUser({ prefix: 'walkheir', roles: ['author'] });
      return { tool: 'delete-user', params: { id: me.id, reassign_to: heir.id }, read: userState(me.id) };
    },
  },
  cannot_log_out_self: {
    async setup() {
      return { tool: 'log-out-user', params: { user_id: me.id }, read: sessions(me.id) };
    },
  },
  own_app_password: {
    async setup() {
      const own = await wp().get<{ uuid: string }>('/wp/v2/users/me/application-passwords/introspect', { _fields: 'uuid' });
      return { tool: 'revoke-app-passwords', params: { user_id: me.id, uuid: own.uuid }, read: appPasswords(me.id) };
    },
  },
  invalid_reassign: {
    async setup() {
      const user = await makeUser({ prefix: 'walkreassign', roles: ['author'] });
      return { tool: 'delete-user', params: { id: user.id, reassign_to: user.id }, read: userState(user.id) };
    },
  },
  cannot_change_own_capabilities: {
    async setup() {
      return {
        tool: 'update-user-capabilities',
        params: { user_id: me.id, remove_capabilities: ['edit_posts'] },
        read: userState(me.id),
      };
    },
  },
  role_has_users: {
    async setup() {
      const slug = `walk_${randomUUID().slice(0, 8)}`;
      await wpPhp(`add_role('${slug}', 'Walk role', ['read' => true]);`);
      const user = await makeUser({ prefix: 'walkholder', roles: [slug] });
      return { tool: 'delete-role', params: { slug }, read: async () => [await roles(), await userState(user.id)()] };
    },
  },
  default_role_protected: {
    async setup() {
      return { tool: 'delete-role', params: { slug: 'administrator', force: true }, read: roles };
    },
  },
  user_disabled: {
    async setup() {
      const user = await makeUser({ prefix: 'walkdisabled', roles: ['author'] });
      const disabled = await callIn(testContext(), 'disable-user', { id: user.id });
      expect(disabled.ok, JSON.stringify(disabled)).toBe(true);
      return { tool: 'reset-user-password', params: { id: user.id, delivery: 'email' }, read: userState(user.id) };
    },
  },
  no_one_to_receive_link: {
    async setup() {
      const user = await makeUser({ prefix: 'walklink' });
      return { tool: 'reset-user-password', params: { id: user.id, delivery: 'link' }, read: userState(user.id) };
    },
  },
  companion_plugin_missing: {
    async setup() {
      const user = await makeUser({ prefix: 'walknoplugin' });
      return { tool: 'disable-user', params: { id: user.id }, context: restOnlyContext(), read: userState(user.id) };
    },
  },
  account_stronger_than_caller: {
    async setup() {
      const admin = await makeUser({ prefix: 'walkadmin', roles: ['administrator'] });
      const heir = await makeUser({ prefix: 'walkheir2', roles: ['author'] });
      return { tool: 'delete-user', params: { id: admin.id, reassign_to: heir.id }, context: manager, read: userState(admin.id) };
    },
  },
  role_stronger_than_caller: {
    async setup() {
      const user = await makeUser({ prefix: 'walkpromote' });
      return { tool: 'set-user-role', params: { id: user.id, role: 'administrator' }, context: manager, read: userState(user.id) };
    },
  },
  capability_beyond_caller: {
    async setup() {
      const user = await makeUser({ prefix: 'walkcaps' });
      return {
        tool: 'update-user-capabilities',
        params: { user_id: user.id, add_capabilities: ['manage_options'] },
        context: manager,
        read: userState(user.id),
      };
    },
  },

  // ---- multisite networks
  not_a_network: {
    async setup() {
      const user = await makeUser({ prefix: 'walknonet' });
      return { tool: 'add-user-to-site', params: { user_id: user.id, site: 'sports', role: 'author' }, read: userState(user.id) };
    },
  },
  network_account: {
    on: 'network',
    async setup() {
      return {
        tool: 'delete-user',
        params: { id: net.users.erin, reassign_to: net.users.bob },
        // A toolkit on one site of the network, not told it is on a network: the single-site form.
        context: { ...net.context('sports'), network: false },
        read: () => networkState(net),
      };
    },
  },
  already_member: {
    on: 'network',
    async setup() {
      return {
        tool: 'add-user-to-site',
        params: { user_id: net.users.carla, site: 'sports', role: 'editor' },
        context: net.context(),
        read: () => networkState(net),
      };
    },
  },
  not_member: {
    on: 'network',
    async setup() {
      return {
        tool: 'remove-user-from-site',
        params: { user_id: net.users.carla, site: 'arts' },
        context: net.context(),
        read: () => networkState(net),
      };
    },
  },
  content_needs_heir: {
    on: 'network',
    async setup() {
      return { tool: 'delete-user', params: { id: net.users.bob }, context: net.context(), read: () => networkState(net) };
    },
  },
  last_super_admin: {
    on: 'network',
    async setup() {
      return { tool: 'revoke-super-admin', params: { user_id: net.users.admin }, context: net.context(), read: () => networkState(net) };
    },
  },
  delete_super_admin: {
    on: 'network',
    async setup() {
      await net.php(`grant_super_admin(${net.users.dave});`);
      return {
        tool: 'delete-user',
        params: { id: net.users.dave, reassign_to: net.users.bob },
        cleanup: () => net.php(`revoke_super_admin(${net.users.dave});`),
        context: net.context(),
        read: () => networkState(net),
      };
    },
  },
};

const ONE_PATH = 'decided before the dry run is read (the envelope, the schema, the session): one path';
const NO_DRY_RUN = 'said by a read-only tool or a surface that has no dry run';
const WRITE_ONLY = 'met only while the write runs (WordPress or the companion plugin decides on the write): a dry run writes nothing to meet it';
const SETUP = 'a setting or the environment, checked before any tool runs (dry run or not)';
const TRANSPORT = 'the transport or the site itself answers it, the same for any request: one path';

const NOT_WALKED: Record<string, string> = {
  invalid_json: ONE_PATH,
  invalid_envelope: ONE_PATH,
  unknown_tool: ONE_PATH,
  tool_not_allowed: ONE_PATH,
  invalid_params: ONE_PATH,
  toolset_unavailable: `${ONE_PATH} (enable-toolset has no dry run)`,
  not_configured: SETUP,
  invalid_config: SETUP,
  audit_log_not_private: SETUP,
  authentication_failed: SETUP,
  name_ambiguous: `${ONE_PATH}: call/names.ts resolves names for both paths alike (test/wordpress/users covers it)`,
  '*_not_found': 'the pattern of user_not_found, term_not_found…: name_not_found walks the lookup both paths share',
  post_not_found: 'per post in a bulk answer, not the call’s error',
  objects_not_visible: 'needs a post type REST does not show and no companion plugin: test/wordpress/taxonomy/hidden-posts.test.ts',
  parent_not_set: `${WRITE_ONLY}: a filter of the site keeps another parent`,
  nothing_pruned: `${WRITE_ONLY}: every matched term was in use when it came to be deleted`,
  term_not_created: `${WRITE_ONLY}: migrate-terms could not create a term in the target`,
  post_type_not_found: `${NO_DRY_RUN}: find-posts`,
  taxonomy_not_on_type: `${NO_DRY_RUN}: find-posts`,
  taxonomy_required: `${NO_DRY_RUN}: find-posts`,
  invalid_cursor: `${NO_DRY_RUN}: list tools`,
  too_many_rows: 'needs a CSV of 10,001 rows; import-rows.ts refuses it for the dry run and the write alike',
  too_many_accounts: 'needs 10,001 accounts; set-users-role’s plan() refuses it for the review, the dry run and the write alike',
  role_not_allowed: `${WRITE_ONLY}: WordPress's check_role_update refuses the role on the write`,
  rejected_by_user: 'a person says no to a question; a dry run asks no one',
  approval_unavailable: 'a question no one can answer; a dry run asks no one',
  last_administrator: 'a caller either holds manage_options itself (so the target is not the last) or is refused first as weaker (account_stronger_than_caller); the plugin’s guard: test/wordpress/users/last-admin-race.test.ts',
  site_busy: `${WRITE_ONLY}: another request holds the lock the write takes`,
  companion_plugin_outdated: 'needs an older companion plugin than the tool’s route: test/wordpress/users/roles.test.ts, sessions.test.ts',
  invalid_role:
    "role-params.ts's roleSlug() checks the slug as the plugin does, and a name is required: invalid_params on both paths; the plugin says it only to a request that bypasses the tools",
  cms_admin_user_disabled: 'the sign-in of a disabled account (the toolkit’s own): refused before any tool runs, dry run or not',
  cms_admin_cannot_assign_term: `${WRITE_ONLY}: the site's map_meta_cap refuses a term`,
  cms_admin_new_user_email_off: `${WRITE_ONLY}: the site turned the new-user email off`,
  network_filters: `${NO_DRY_RUN}: list-users`,
  cms_admin_not_super_admin: 'the plugin refuses a site administrator on every network route, reads included: one path',
  insecure_http: TRANSPORT,
  site_redirects: TRANSPORT,
  rest_root_elsewhere: TRANSPORT,
  write_redirected: `${TRANSPORT} (a write's redirect)`,
  not_json: TRANSPORT,
  http_403: TRANSPORT,
  http_503: TRANSPORT,
  site_maintenance: TRANSPORT,
  all_posts_failed: `${WRITE_ONLY}: every post of a bulk write failed`,
  outcome_unknown: `${WRITE_ONLY}: a write's answer was lost`,
  term_not_found: `${WRITE_ONLY}: a term deleted while a bulk write ran`,
  changed_meanwhile: `${WRITE_ONLY}: another writer`,
  cms_admin_term_not_in_taxonomy: `${WRITE_ONLY}: the plugin's bulk route`,
  change_not_reversible: 'a change that cannot be undone must first be made (a password set, an account deleted): test/wordpress/undo-users.test.ts',
  already_undone: 'the change journal: test/wordpress/undo-tools.test.ts',
  undo_busy: 'two processes undoing the same journal at once: a race, not a dry run’s',
  journal_damaged: 'an app’s own journal returning a damaged entry among the latest changes',
  journal_not_private: SETUP,
  journal_unavailable: `${WRITE_ONLY}: the journal's intent is written just before the write`,
  change_in_progress: 'a live process still making the change (its journal entry pending)',
  node_too_old: 'a Node without node:sqlite runs the bin (test/cli/node-version.test.ts, with this machine’s Node 20); the test suite runs on Node 22+',
  cancelled: TRANSPORT,
  not_run: 'the chat runner: a call of a step that never started',
  scheduled_time_passed: 'per post in a bulk answer, not the call’s error',
  batch_missing_response: 'per post in a bulk answer, not the call’s error',
  batch_not_sent: 'per item of /batch/v1 after two batches in a row outlasted the timeout (a site that stopped answering), not the call’s error; test/unit/batch-sizing.test.ts',
  cms_admin_changed_since: 'per account in a bulk account answer (another writer changed it between the read and the write), not the call’s error; test/reliability/accounts-race.test.ts',
  cms_admin_cannot_change_own_role: 'per account in the plugin’s bulk-roles answer; the tools refuse one’s own role first (an account cannot change its own role), so it reaches no call',
  cms_admin_delete_failed: 'per account in the plugin’s bulk-delete answer when wp_delete_user() returns false, which no guard makes happen',
  answer_too_large: 'MCP only, after the call ran',
  not_started: 'a fleet run stopped before a site',
  changed_since_question: 'a fleet write approved and re-reviewed; a dry run asks no one',
  unreachable: 'sites check',
  internal_error: 'a bug: the test helpers fail any test that meets one',
  tool_failed: 'the chat runner’s word for internal_error',
  rest_forbidden: TRANSPORT,
  rest_post_invalid_id: TRANSPORT,
  ECONNREFUSED: TRANSPORT,
  ECONNABORTED: TRANSPORT,
  ERR_NETWORK: TRANSPORT,
  ERR_UNKNOWN: TRANSPORT,
  // Site abilities (#62): on WordPress 6.9+ only, which this file's 6.1 and 6.8 runs are not.
  abilities_unavailable: 'WordPress before 6.9: test/wordpress/abilities/absent.test.ts walks the dry run and the call',
  ability_not_found: 'WordPress 6.9+ only: test/wordpress/abilities/abilities.test.ts walks the dry run and the call',
  ability_refused: 'WordPress 6.9+ only: test/wordpress/abilities/abilities.test.ts walks the dry run and the call (an editor)',
  ability_input_refused: `${WRITE_ONLY}: a filter of the site refuses an input the ability's schema allows`,
  ability_changed: 'a session listing an ability as read-only whose site then stops marking it so: test/agent/abilities-tools.test.ts',
  cms_admin_no_abilities: 'the plugin’s dry run on a site without the Abilities API, which the toolkit refuses first as abilities_unavailable',
};

beforeAll(async () => {
  const site = testSite();
  const user = await wp().get<{ id: number; slug: string }>('/wp/v2/users/me', { context: 'edit', _fields: 'id,username' });
  me = { id: user.id, username: site.username };
  await wpPhp(
    `remove_role('${MANAGER_ROLE}'); add_role('${MANAGER_ROLE}', 'Refusal manager', ['read' => true, 'list_users' => true, 'edit_users' => true, 'delete_users' => true, 'promote_users' => true, 'create_users' => true]);`,
  );
  const mgr = await makeUser({ prefix: 'walkmgr', roles: [MANAGER_ROLE] });
  manager = createContext({ url: site.url, username: mgr.username, appPassword: await makeAppPassword(mgr.id) });
  net = await testNetwork();
});

describe(`every code ${DOC} lists is walked through both paths, or listed with why not`, () => {
  it('no code is left out, and neither list names a code the doc does not', () => {
    const documented = [...new Set(documentedCodes().map((d) => d.code))];
    const neither = documented.filter((code) => !(code in WALKED) && !(code in NOT_WALKED));
    expect(neither, `add these to WALKED (a dry run meets it) or NOT_WALKED (with the reason)`).toEqual([]);
    const both = Object.keys(WALKED).filter((code) => code in NOT_WALKED);
    expect(both).toEqual([]);
    const stale = [...Object.keys(WALKED), ...Object.keys(NOT_WALKED)].filter((code) => !documented.includes(code));
    expect(stale, `not in ${DOC}`).toEqual([]);
    for (const [code, reason] of Object.entries(NOT_WALKED)) expect(reason.length, code).toBeGreaterThan(10);
  });
});

describe('one code and one hint on the dry run and the real call; nothing written', () => {
  for (const [code, walk] of Object.entries(WALKED)) {
    it(code, async () => {
      const { tool, params, context, read, cleanup } = await walk.setup();
      if (cleanup) onTestFinished(async () => void (await cleanup()));
      const run = (p: Record<string, unknown>): Promise<ToolOutcome> =>
        walk.on === 'network' ? callNetwork(context as ToolContext, tool, p) : callIn(context ?? testContext(), tool, p);
      const before = await read();
      const dry = await run({ ...params, dry_run: true });
      expect(await read(), 'the dry run wrote').toEqual(before);
      const real = await run(params);
      expect(await read(), 'the refused call wrote').toEqual(before);
      expect(dry, 'the dry run').toMatchObject({ ok: false, error: { code } });
      expect(real, 'the real call').toMatchObject({ ok: false, error: { code } });
      const [dryHint, realHint] = [dry, real].map((o) => (o.ok ? undefined : o.error.hint));
      expect(dryHint, 'the dry run has a hint').toMatch(/\S/);
      expect(realHint, 'the real call’s hint').toBe(dryHint);
    });
  }
});
