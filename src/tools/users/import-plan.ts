import type { WordPressClient } from '../../client/index.js';
import { chunk, decodeEntities } from '../../client/index.js';
import { ToolError } from '../tool-error.js';
import { capabilitiesBeyond, capabilityMap, capabilityNames } from './capability-maps.js';
import { type ImportRow, importRows } from './import-rows.js';
import { roleJudge, type RoleJudge } from './role-plan.js';
import { loadRoles } from './roles.js';
import { defaultRole, rolePowers } from './risk.js';
import type { ChangeJournal } from '../journal-port.js';
import { accessOf, finishRow, madeBy, unfinishedImports } from './import-unfinished.js';

/**
 * What import-users would do with each row (#50), read from the site: `create` a new account,
 * `update` an existing one (only with update_existing), `skip` (exists, or nothing to change),
 * or `error` with why; `finish` an account an unfinished import made that never got its way in
 * (#59.10, import-unfinished.ts). The guards of the role tools hold per row (role-plan.ts).
 */
export type RowOutcome = 'create' | 'update' | 'skip' | 'error' | 'finish';

export interface RowStep {
  line: number;
  login: string;
  outcome: RowOutcome;
  reason?: string;
  /** The existing account (update, skip). */
  id?: number;
  /** The role the account gets (create: given or the site's default; update: when it changes). */
  role?: string;
  /** Powerful capabilities this row gives the account. */
  gains: string[];
  /** What WordPress is sent: the create's or the update's fields (no password: added when sent). */
  body?: Record<string, unknown>;
  /** An update of an account an unfinished import made and never let in: it gets its way in too. */
  finish?: true;
  /** An update's role change: the roles the account has now (it is changed only if it still has them). */
  was?: string[];
}

/** The plan, and the newest account id before it (what the import makes is newer). */
export type ImportPlan = RowStep[] & { newest: number };

export interface ImportParams {
  csv: string;
  update_existing?: boolean;
  role?: string;
}

interface Existing {
  id: number;
  username: string;
  email: string;
  name: string;
  first_name: string;
  last_name: string;
  url: string;
  roles: string[];
  capabilities: Record<string, boolean>;
}

const lower = (s: string) => s.toLowerCase();

/** Every account's login and email (100 a request): which rows name an existing account. */
async function siteIndex(client: WordPressClient) {
  const logins = new Map<string, number>();
  const emails = new Map<string, number>();
  let newest = 0;
  for await (const page of client.pages<{ id: number; username: string; email: string }>('/wp/v2/users', {
    context: 'edit',
    _fields: 'id,username,email',
    per_page: 100,
  })) {
    for (const u of page) {
      newest = Math.max(newest, u.id);
      logins.set(lower(u.username), u.id);
      emails.set(lower(u.email), u.id);
    }
  }
  return { logins, emails, newest };
}

async function readExisting(client: WordPressClient, ids: number[]): Promise<Map<number, Existing>> {
  const out = new Map<number, Existing>();
  for (const include of chunk(ids, 100)) {
    const page = await client.get<Array<Existing & { name: string }>>('/wp/v2/users', {
      include,
      per_page: 100,
      context: 'edit',
      _fields: 'id,username,email,name,first_name,last_name,url,roles,capabilities',
    });
    for (const u of page) out.set(u.id, { ...u, name: decodeEntities(u.name) });
  }
  return out;
}

export async function planImport(client: WordPressClient, params: ImportParams, journal?: ChangeJournal): Promise<ImportPlan> {
  const rows = [...importRows(params.csv)];
  const [index, roles, powersOf, fallback, me] = await Promise.all([
    siteIndex(client),
    loadRoles(client),
    rolePowers(client),
    defaultRole(client),
    client.connect(),
  ]);
  const roleOf = (given: string): string | undefined => {
    if (roles.source !== 'site') return given;
    const wanted = lower(given.trim());
    return roles.items.find((r) => r.role === given || lower(r.role) === wanted || lower(r.name) === wanted)?.role;
  };
  const roleNames = roles.items.map((r) => r.role);
  const names = capabilityNames(roles.items);
  const matched = params.update_existing ? rows.flatMap((r) => (r.problem ? [] : [index.logins.get(lower(r.user_login))])) : [];
  const existing = await readExisting(client, [...new Set(matched.filter((id): id is number => id !== undefined))]);
  // Accounts an unfinished import made (#59.10), and whether each ever got in.
  const unfinished = await unfinishedImports(journal, me.id);
  const made = new Map(rows.flatMap((r) => {
    const id = r.problem ? undefined : index.logins.get(lower(r.user_login));
    const by = id === undefined ? undefined : madeBy(unfinished, id, r.user_login);
    return by && id !== undefined ? [[id, by] as const] : [];
  }));
  const access = made.size ? await accessOf(client, [...made.keys()]) : undefined;
  const finishOr = (step: RowStep): RowStep => {
    const by = step.id === undefined ? undefined : made.get(step.id);
    return by && step.id !== undefined ? { ...step, ...finishRow(by, access, step.id) } : step;
  };
  const judges = new Map<string, RoleJudge | string>();
  const judge = async (role: string): Promise<RoleJudge | string> => {
    if (!judges.has(role)) {
      judges.set(role, await roleJudge(client, role, [...existing.keys()]).catch((err: unknown) => {
        if (err instanceof ToolError) return err.message.replace(/ Nothing was changed\.$/, '');
        throw err;
      }));
    }
    return judges.get(role) as RoleJudge | string;
  };
  const seenLogin = new Map<string, number>();
  const seenEmail = new Map<string, number>();
  const steps: RowStep[] = [];
  for (const row of rows) {
    steps.push(await step(row));
  }
  return Object.assign(steps, { newest: index.newest });

  async function step(row: ImportRow): Promise<RowStep> {
    const base = { line: row.line, login: row.user_login, gains: [] as string[] };
    const error = (reason: string): RowStep => ({ ...base, outcome: 'error', reason });
    if (row.problem) return error(row.problem);
    const [login, email] = [lower(row.user_login), lower(row.user_email)];
    const twin = seenLogin.get(login) ?? seenEmail.get(email);
    if (twin !== undefined) return error(`the same user_login or user_email as line ${twin}`);
    seenLogin.set(login, row.line);
    seenEmail.set(email, row.line);
    const given = row.role ?? params.role;
    const role = given === undefined ? undefined : roleOf(given);
    if (given !== undefined && role === undefined) return error(`no role "${given}" on this site (${roleNames.join(', ')})`);
    const id = index.logins.get(login);
    const owner = index.emails.get(email);
    if (id === undefined) {
      if (owner !== undefined) return error(`user_email belongs to another account (id ${owner})`);
      const gets = role ?? fallback;
      const judged = gets === undefined ? undefined : await judge(gets);
      if (typeof judged === 'string') return error(judged);
      const body = { username: row.user_login, email: row.user_email, name: row.display_name, first_name: row.first_name, last_name: row.last_name, url: row.url, roles: role === undefined ? undefined : [role] };
      return { ...base, outcome: 'create', role: gets, gains: gets === undefined ? ['the site’s default role (unknown)'] : powersOf(gets), body };
    }
    if (!params.update_existing) return finishOr({ ...base, id, outcome: 'skip', reason: 'the account exists (update_existing is off)' });
    const account = existing.get(id);
    if (!account) return error('the account exists but WordPress does not show it to you');
    if (owner !== id) return error(`the account has another email; change it with update-user`);
    const body: Record<string, unknown> = {};
    if (row.display_name !== undefined && row.display_name !== account.name) body.name = row.display_name;
    for (const f of ['first_name', 'last_name', 'url'] as const) if (row[f] !== undefined && row[f] !== account[f]) body[f] = row[f];
    const changesRole = role !== undefined && !(account.roles.length === 1 && account.roles[0] === role);
    let gains: string[] = [];
    if (changesRole) {
      const judged = await judge(role);
      if (typeof judged === 'string') return error(judged);
      const verdict = judged.step(account);
      if (verdict.outcome === 'refused') return error(verdict.reason ?? 'refused');
      body.roles = [role];
      gains = verdict.gains;
    } else if (Object.keys(body).length) {
      const beyond = capabilitiesBeyond(capabilityMap(account.capabilities, account.roles, names), me.capabilities);
      if (beyond.length && account.id !== me.id) return error(`the account holds capabilities yours lacks (${beyond.slice(0, 3).join(', ')})`);
    }
    if (!Object.keys(body).length) return finishOr({ ...base, id, outcome: 'skip', reason: 'nothing to change' });
    const finish = finishOr({ ...base, id, outcome: 'skip' }).outcome === 'finish' ? { finish: true as const } : {};
    return { ...base, ...finish, ...(changesRole ? { was: [...account.roles].sort() } : {}), id, outcome: 'update', role: changesRole ? role : undefined, gains, body, reason: `changes ${Object.keys(body).map((k) => (k === 'name' ? 'display_name' : k === 'roles' ? 'role' : k)).join(', ')}` };
  }
}
