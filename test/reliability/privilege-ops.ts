import { invoke, type ToolOutcome } from '../../src/call/index.js';
import { recordOutput, recordSecret } from '../helpers/output-log.js';
import { recordingApprover } from '../helpers/network.js';
import { testSite } from '../helpers/site.js';
import { CONTENT, POOL, POWER, type SiteState, type World } from './privilege-world.js';

/**
 * The privilege property's steps (#58): every role, capability, account and bulk tool, called by
 * the sequence's caller through the pipeline (its approvals answered yes by a recording approver),
 * and the companion plugin's role and capability routes and core's /wp/v2/users routes called
 * directly with the caller's application password. Drawn from a seeded generator: the same seed,
 * the same steps on the same site.
 */
export type Step =
  | { kind: 'tool'; tool: string; params: Record<string, unknown> }
  | { kind: 'rest'; method: 'PUT' | 'POST' | 'DELETE'; route: string; body?: Record<string, unknown> };

export const TOOLS = ['create-role', 'update-role', 'delete-role', 'update-user-capabilities', 'set-user-role', 'set-users-role', 'create-user', 'update-user', 'import-users', 'delete-user', 'disable-user', 'enable-user'];

/** mulberry32: a small seeded generator (https://stackoverflow.com/a/47593316). */
export function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const chance = (p: number) => next() < p;
  const some = <T>(list: readonly T[], p: number): T[] => list.filter(() => chance(p));
  return { next, pick, chance, some };
}
export type Random = ReturnType<typeof random>;

/**
 * The next step for `world` on the site as it is now. Roles named after capabilities, denials on
 * roles accounts hold, and roles the sequence made are drawn often: they are where power hides.
 */
export function nextStep(r: Random, world: World, site: SiteState, n: number): Step {
  const roles = Object.keys(site.roles);
  const made = roles.filter((slug) => slug.startsWith(world.prefix) || POOL.includes(slug));
  const role = () => (made.length && r.chance(0.5) ? r.pick(made) : r.pick(roles));
  const target = () => r.pick(world.targets.filter((id) => site.accounts.has(id)));
  const caps = (p: number) => r.some(POOL, p);
  const map = (base: Record<string, boolean>) => {
    const out = { ...base };
    for (const cap of r.some(POOL, 0.2)) out[cap] = r.chance(0.5);
    return out;
  };
  const fresh = `${world.prefix}_${n}`;
  const slug = () => (r.chance(0.5) ? r.pick([...POWER, ...CONTENT]) : `${world.prefix}_r${n}`);
  const kinds: Array<[number, () => Step]> = [
    [3, () => ({ kind: 'tool', tool: 'create-role', params: { slug: slug(), name: `Role ${n}`, ...(r.chance(0.2) ? { clone_from: role() } : { capabilities: ['read', ...caps(0.2)] }), ...(r.chance(0.4) ? { deny_capabilities: caps(0.15) } : {}) } })],
    [3, () => {
      const slugged = r.chance(0.3) ? slug() : role();
      const current = site.roles[slugged];
      return { kind: 'rest', method: 'PUT', route: `/cms-admin/v1/roles/${slugged}`, body: { name: `Role ${n}`, capabilities: map(current ?? { read: true }) } };
    }],
    [3, () => ({ kind: 'tool', tool: 'set-user-role', params: { id: target(), ...(r.chance(0.7) ? { role: role() } : { add_roles: [role()] }) } })],
    [3, () => ({ kind: 'rest', method: 'POST', route: `/wp/v2/users/${target()}`, body: { roles: r.chance(0.8) ? [role()] : [role(), role()] } })],
    [2, () => ({ kind: 'tool', tool: 'update-role', params: { slug: role(), add_capabilities: caps(0.15), remove_capabilities: caps(0.1) } })],
    [2, () => ({ kind: 'tool', tool: 'update-user-capabilities', params: { user_id: target(), add_capabilities: caps(0.15), remove_capabilities: caps(0.1) } })],
    [2, () => ({ kind: 'rest', method: 'PUT', route: `/cms-admin/v1/users/${target()}/capabilities`, body: { capabilities: map({}) } })],
    [1, () => ({ kind: 'tool', tool: 'set-users-role', params: { user_ids: r.some(world.targets, 0.4).concat(target()), to_role: role() } })],
    [1, () => ({ kind: 'tool', tool: 'create-user', params: { username: fresh, email: `${fresh}@example.org`, ...(r.chance(0.8) ? { role: role() } : {}) } })],
    [1, () => {
      const password = `Pw-${fresh}-${r.next().toString(36).slice(2)}`;
      recordSecret(password);
      return { kind: 'rest', method: 'POST', route: '/wp/v2/users', body: { username: `${fresh}c`, email: `${fresh}c@example.org`, password, roles: [role()] } };
    }],
    [1, () => ({ kind: 'tool', tool: 'update-user', params: { id: target(), email: `${fresh}e@example.net` } })],
    [1, () => ({ kind: 'rest', method: 'POST', route: `/wp/v2/users/${target()}`, body: { email: `${fresh}r@example.net` } })],
    [1, () => {
      const existing = r.chance(0.5) ? site.accounts.get(target()) : undefined;
      const row = existing ? `${existing.login},${existing.email}` : `${fresh}i,${fresh}i@example.org`;
      return { kind: 'tool', tool: 'import-users', params: { csv: `user_login,user_email,role\n${row},${role()}\n`, ...(existing ? { update_existing: true } : {}) } };
    }],
    [1, () => ({ kind: 'tool', tool: 'delete-role', params: { slug: role(), move_users_to: role(), force: r.chance(0.5) } })],
    [1, () => ({ kind: 'rest', method: 'DELETE', route: `/cms-admin/v1/roles/${role()}`, body: { move_users_to: role(), force: r.chance(0.5) } })],
    [1, () => ({ kind: 'tool', tool: 'delete-user', params: { id: target(), reassign_to: world.caller.id } })],
    [1, () => ({ kind: 'tool', tool: r.chance(0.6) ? 'disable-user' : 'enable-user', params: { id: target() } })],
  ];
  const total = kinds.reduce((sum, [weight]) => sum + weight, 0);
  let at = r.next() * total;
  for (const [weight, make] of kinds) {
    at -= weight;
    if (at < 0) return make();
  }
  return (kinds[0] as [number, () => Step])[1]();
}

export interface Done {
  step: Step;
  /** The questions asked (every one approved). */
  asked: string[];
  answer: string;
}

/** Runs one step as the caller; a tool's internal_error is a bug and fails the property. */
export async function runStep(world: World, step: Step): Promise<Done> {
  if (step.kind === 'tool') {
    const approver = recordingApprover(true);
    const outcome: ToolOutcome = await invoke({ tool: step.tool, params: step.params }, world.caller.context, {}, { approver });
    recordOutput(JSON.stringify(outcome));
    if (!outcome.ok && outcome.error.code === 'internal_error') throw new Error(`Bug: ${step.tool} ${JSON.stringify(step.params)}: ${outcome.error.message}`);
    return { step, asked: approver.asked.map((q) => q.summary), answer: outcome.ok ? 'ok' : outcome.error.code };
  }
  const { caller } = world;
  const response = await fetch(`${testSite().url}/wp-json${step.route}`, {
    method: step.method,
    headers: { authorization: `Basic ${Buffer.from(`${caller.login}:${caller.appPassword}`).toString('base64')}`, 'content-type': 'application/json' },
    body: step.body ? JSON.stringify(step.body) : undefined,
  });
  const body = (await response.json().catch(() => ({}))) as { code?: string };
  recordOutput(JSON.stringify(body));
  return { step, asked: [], answer: `${response.status}${body.code ? ` ${body.code}` : ''}` };
}

export const describeStep = (step: Step) =>
  step.kind === 'tool' ? `${step.tool} ${JSON.stringify(step.params)}` : `${step.method} ${step.route} ${JSON.stringify(step.body ?? {})}`;
