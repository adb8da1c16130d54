import fc from 'fast-check';
import { wpPhp } from '../wordpress/users/helpers.js';

/**
 * The accounts undo property's world (accounts-undo-property.test.ts): a dozen accounts of the
 * seed's own (written straight into the tables: no password hashing), two roles of its own, and
 * random sequences of the bulk account writes over them — set-users-role, update-role,
 * delete-role, update-user-capabilities, import-users — each op only choices, resolved against
 * the site as it is when the op runs. The snapshot and every check read WordPress through PHP.
 */
export const PROPERTY_TOOLS = ['set-users-role', 'update-role', 'delete-role', 'update-user-capabilities', 'import-users'] as const;
export type PropertyTool = (typeof PROPERTY_TOOLS)[number];

export interface Op {
  tool: PropertyTool;
  picks: [number, number, number, number];
  flag: boolean;
}

/** Capabilities the sequence grants and takes (the caller, an administrator, holds them all). */
const CAPS = ['upload_files', 'edit_posts', 'moderate_comments', 'read_private_posts', 'edit_published_posts'];
/** Roles every account may get besides the seed's own. */
export const DEFAULT_ROLES = ['subscriber', 'contributor', 'author'];

export function opSequence(length: number): fc.Arbitrary<Op[]> {
  const op = (tool: PropertyTool) =>
    fc.record({ tool: fc.constant(tool), picks: fc.tuple(fc.nat(), fc.nat(), fc.nat(), fc.nat()), flag: fc.boolean() });
  return fc
    .array(fc.constantFrom(...PROPERTY_TOOLS), { minLength: length - PROPERTY_TOOLS.length, maxLength: length - PROPERTY_TOOLS.length })
    .chain((more) => fc.shuffledSubarray([...PROPERTY_TOOLS, ...more], { minLength: length }))
    .chain((tools) => fc.tuple(...tools.map(op)));
}

export interface World {
  prefix: string;
  roles: [string, string];
  /** The seed's accounts made at the start (the other writer acts on these only). */
  logins: string[];
}

export async function makeWorld(seed: number): Promise<World> {
  const prefix = `pw${seed.toString(36)}${Date.now().toString(36)}`;
  const roles: [string, string] = [`${prefix}_ra`, `${prefix}_rb`];
  const logins = Array.from({ length: 12 }, (_, i) => `${prefix}_u${i}`);
  const give = [...DEFAULT_ROLES, ...roles];
  await wpPhp(`add_role('${roles[0]}', 'Prop A', get_role('contributor')->capabilities); add_role('${roles[1]}', 'Prop B', get_role('author')->capabilities);
    global $wpdb; foreach (${JSON.stringify(logins)} as $i => $login) {
      $wpdb->insert($wpdb->users, ['user_login' => $login, 'user_pass' => '*', 'user_nicename' => $login, 'user_email' => "$login@example.org", 'user_registered' => gmdate('Y-m-d H:i:s'), 'display_name' => $login]);
      $roles = ${JSON.stringify(give)}; update_user_meta((int) $wpdb->insert_id, $wpdb->prefix . 'capabilities', [$roles[$i % count($roles)] => true]); }`);
  return { prefix, roles, logins };
}

export async function removeWorld(world: World): Promise<void> {
  await wpPhp(`require_once ABSPATH . 'wp-admin/includes/user.php';
    foreach (get_users(['search' => '${world.prefix}_*', 'search_columns' => ['user_login'], 'number' => -1, 'fields' => 'ID']) as $id) wp_delete_user((int) $id);
    remove_role('${world.roles[0]}'); remove_role('${world.roles[1]}');`);
}

export interface Snapshot {
  users: Record<string, { id: number; roles: string[]; own: Record<string, boolean> }>;
  roles: Record<string, Record<string, boolean> | null>;
}

/** Every account of the world (made or imported) with its roles and own capabilities; the world's roles. */
export async function snapshot(world: World): Promise<Snapshot> {
  return JSON.parse(
    await wpPhp(`$out = ['users' => [], 'roles' => []];
      foreach (get_users(['search' => '${world.prefix}_*', 'search_columns' => ['user_login'], 'number' => -1]) as $u) {
        $own = array_map('boolval', array_filter($u->caps, static fn ($c) => !wp_roles()->is_role((string) $c), ARRAY_FILTER_USE_KEY)); ksort($own);
        $r = array_values($u->roles); sort($r); $out['users'][$u->user_login] = ['id' => $u->ID, 'roles' => $r, 'own' => (object) $own]; }
      foreach (${JSON.stringify(world.roles)} as $slug) { $role = get_role($slug); $caps = $role ? array_map('boolval', $role->capabilities) : null; if ($caps) ksort($caps); $out['roles'][$slug] = $caps ? (object) $caps : null; }
      echo json_encode($out);`),
  ) as Snapshot;
}

const at = <T>(list: readonly T[], n: number): T | undefined => (list.length ? list[n % list.length] : undefined);

/** The call an op makes now, and which request of it a race holds; undefined when nothing fits. */
export function resolveOp(o: Op, i: number, world: World, site: Snapshot): { params: Record<string, unknown>; write: { method: string; path: RegExp } } | undefined {
  const [a, b, c, d] = o.picks;
  const accounts = Object.entries(site.users);
  const roles = [...DEFAULT_ROLES, ...world.roles.filter((r) => site.roles[r])];
  const holders = (role: string) => accounts.filter(([, u]) => u.roles.includes(role));
  switch (o.tool) {
    case 'set-users-role': {
      const to = at(roles, b) as string;
      // By role: only the seed's own roles, which no account outside the world has.
      const from = o.flag ? at(world.roles.filter((r) => site.roles[r] && r !== to && holders(r).length), a) : undefined;
      if (from) return { params: { from_role: from, to_role: to }, write: BULK_ROLES };
      const ids = [0, 1, 2].map((k) => at(accounts, a + k * 5)?.[1].id).filter((id): id is number => id !== undefined);
      return ids.length ? { params: { user_ids: [...new Set(ids)], to_role: to }, write: BULK_ROLES } : undefined;
    }
    case 'update-role': {
      const slug = at(world.roles.filter((r) => site.roles[r]), a);
      if (!slug) return undefined;
      const add = at(CAPS, b) as string;
      const remove = at(CAPS.filter((cap) => cap !== add), c) as string;
      return { params: { slug, add_capabilities: [add], ...(o.flag ? { remove_capabilities: [remove] } : {}) }, write: { method: 'PUT', path: /\/cms-admin\/v1\/roles\// } };
    }
    case 'delete-role': {
      const slug = at(world.roles.filter((r) => site.roles[r]), a);
      if (!slug) return undefined;
      return { params: { slug, move_users_to: at(DEFAULT_ROLES, b) }, write: { method: 'DELETE', path: /\/cms-admin\/v1\/roles\// } };
    }
    case 'update-user-capabilities': {
      const user = at(accounts, a)?.[1];
      if (!user) return undefined;
      const own = Object.keys(user.own);
      const remove = o.flag && own.length ? [at(own, c) as string] : [];
      return { params: { user_id: user.id, add_capabilities: [at(CAPS, b) as string], ...(remove.length ? { remove_capabilities: remove } : {}) }, write: { method: 'PUT', path: /\/cms-admin\/v1\/users\/\d+\/capabilities/ } };
    }
    case 'import-users': {
      const lines = Array.from({ length: 1 + (b % 3) }, (_, k) => `${world.prefix}_i${i}_${k},${world.prefix}_i${i}_${k}@example.org,${at(roles, c + k)}`);
      // Now and then an existing account too, to be updated (a role change through the same batch).
      const existing = o.flag ? at(world.logins.filter((l) => site.users[l]), d) : undefined;
      if (existing) lines.push(`${existing},${existing}@example.org,${at(roles, d + 1)}`);
      return { params: { csv: ['user_login,user_email,role', ...lines].join('\n'), update_existing: Boolean(existing) }, write: { method: 'POST', path: /\/batch\/v1/ } };
    }
  }
}

const BULK_ROLES = { method: 'POST', path: /\/cms-admin\/v1\/users\/bulk-roles|\/batch\/v1/ };
