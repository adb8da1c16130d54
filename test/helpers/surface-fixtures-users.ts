import { callOk, unique } from './site.js';
import type { Made, SurfaceFixture } from './surface-fixtures.js';
import { type Fixture, makeAppPassword, makeUser, newIdentity, newPassword, wpPhp } from '../wordpress/users/helpers.js';
import { recordSecret } from './output-log.js';

/** The surface property's calls of the account and role tools (surface-fixtures.ts). */
type Ref = (user: Fixture) => number | string;
const byId: Ref = (u) => u.id;
const byLogin: Ref = (u) => u.username;
const byEmail: Ref = (u) => u.email;

/** A call on accounts: with ids, and with a login (and an email for the second account, so both forms of name are met). */
function onUsers(users: Fixture[], build: (ref: Ref, second: Ref) => Record<string, unknown>, extra: Partial<Made> = {}): Made {
  return { ids: build(byId, byId), names: build(byLogin, byEmail), watch: { users: users.map((u) => u.id), ...extra.watch }, ...(extra.secrets && { secrets: extra.secrets }) };
}

/** A call of a network tool on a new account of the test network (not a member of any site until `more` makes it one). */
function onNetwork(more: (php: (code: string) => Promise<string>, id: number) => Promise<Record<string, unknown>>): SurfaceFixture {
  return {
    network: true,
    asks: true,
    async make(php) {
      const { username, email } = newIdentity('surfnet');
      const id = Number(await php(`echo wpmu_create_user('${username}', wp_generate_password(24), '${email}');`));
      const user = { id, username, email, password: '' };
      const rest = await more(php, id);
      return onUsers([user], (ref) => ({ user_id: ref(user), ...rest }));
    },
  };
}

const roleSlug = () => unique('surfacerole').toLowerCase().replace(/[^a-z0-9]+/g, '_');
const makeRole = async (caps: Record<string, boolean> = { read: true }) => {
  const slug = roleSlug();
  await wpPhp(`add_role('${slug}', 'Surface role', json_decode('${JSON.stringify(caps)}', true));`);
  return slug;
};

export const USER_FIXTURES: Record<string, SurfaceFixture> = {
  'create-user': {
    asks: true,
    async make() {
      const { username, email } = newIdentity('surfacenew');
      const password = newPassword();
      recordSecret(password);
      return { ids: { username, email, password, role: 'administrator' }, watch: { logins: [username] }, secrets: [password] };
    },
  },
  'update-user': {
    asks: true,
    make: async () => {
      const user = await makeUser({ prefix: 'surfupd' });
      return onUsers([user], (ref) => ({ id: ref(user), email: `${user.username}-new@example.com` }));
    },
  },
  'disable-user': { asks: true, make: async () => ((u) => onUsers([u], (ref) => ({ id: ref(u), reason: 'Surface test' })))(await makeUser({ prefix: 'surfdis', roles: ['editor'] })) },
  'enable-user': {
    asks: true,
    async make() {
      const user = await makeUser({ prefix: 'surfena', roles: ['editor'] });
      await callOk('disable-user', { id: user.id });
      return onUsers([user], (ref) => ({ id: ref(user) }));
    },
  },
  'reset-user-password': { asks: true, make: async () => ((u) => onUsers([u], (ref) => ({ id: ref(u), delivery: 'email' })))(await makeUser({ prefix: 'surfreset', roles: ['editor'] })) },
  'set-user-role': { asks: true, make: async () => ((u) => onUsers([u], (ref) => ({ id: ref(u), role: 'administrator' })))(await makeUser({ prefix: 'surfrole', roles: ['author'] })) },
  'set-users-role': {
    asks: true,
    async make() {
      const [a, b] = [await makeUser({ prefix: 'surfbulka' }), await makeUser({ prefix: 'surfbulkb' })];
      return onUsers([a, b], (ref, second) => ({ user_ids: [ref(a), second(b)], to_role: 'administrator' }));
    },
  },
  'import-users': {
    asks: true,
    async make() {
      const { username, email } = newIdentity('surfimp');
      return { ids: { csv: `user_login,user_email,role\n${username},${email},administrator\n` }, watch: { logins: [username] } };
    },
  },
  'create-role': {
    asks: true,
    async make() {
      const slug = roleSlug();
      return { ids: { slug, name: 'Surface power', capabilities: ['read', 'manage_options'] }, watch: { roles: [slug] } };
    },
  },
  'update-role': {
    asks: true,
    async make() {
      const slug = await makeRole();
      return { ids: { slug, add_capabilities: ['manage_options'] }, watch: { roles: [slug] } };
    },
  },
  'delete-role': {
    asks: true,
    async make() {
      const slug = await makeRole({ read: true, edit_posts: true });
      const user = await makeUser({ prefix: 'surfdelrole', roles: [slug] });
      return { ids: { slug, move_users_to: 'subscriber' }, watch: { roles: [slug], users: [user.id] } };
    },
  },
  'update-user-capabilities': {
    asks: true,
    make: async () => ((u) => onUsers([u], (ref) => ({ user_id: ref(u), add_capabilities: ['manage_options'] })))(await makeUser({ prefix: 'surfcaps' })),
  },
  'delete-user': {
    asks: true,
    async make() {
      const [gone, heir] = [await makeUser({ prefix: 'surfgone', roles: ['author'] }), await makeUser({ prefix: 'surfheir', roles: ['author'] })];
      return onUsers([gone, heir], (ref, second) => ({ id: ref(gone), reassign_to: second(heir) }));
    },
  },
  'revoke-app-passwords': {
    asks: true,
    async make() {
      const user = await makeUser({ prefix: 'surfapp', roles: ['editor'] });
      await makeAppPassword(user.id);
      return onUsers([user], (ref) => ({ user_id: ref(user) }));
    },
  },
  'log-out-user': {
    asks: true,
    async make() {
      const user = await makeUser({ prefix: 'surfout', roles: ['editor'] });
      await wpPhp(`WP_Session_Tokens::get_instance(${user.id})->create(time() + 3600);`);
      return onUsers([user], (ref) => ({ user_id: ref(user) }));
    },
  },
  // The network tools, on the test network: an account of the network, a member of the site or not.
  'add-user-to-site': onNetwork(async () => ({ site: 'sports', role: 'administrator' })),
  'remove-user-from-site': onNetwork(async (php, id) => {
    await php(`add_user_to_blog(get_id_from_blogname('sports'), ${id}, 'author');`);
    return { site: 'sports' };
  }),
  'grant-super-admin': onNetwork(async () => ({})),
  'revoke-super-admin': onNetwork(async (php, id) => {
    await php(`grant_super_admin(${id});`);
    return {};
  }),
  // No journal entry to name: refused in its review, before any question, in both forms.
  'undo-change': { make: async () => ({ ids: { change_id: 'c-surface-none' }, watch: {} }) },
};
