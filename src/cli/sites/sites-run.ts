import { checkSiteUrl } from '../../config.js';
import { checkSite, type SiteCheck } from '../../sites/check.js';
import { fanOut } from '../../call/index.js';
import { selectSites } from '../../sites/select.js';
import { checkName, findProfile, profilesPath, putProfile, readProfiles, removeNetwork, removeProfile } from '../../sites/store.js';
import { readStdin, wholeNumberFlag } from '../shared.js';
import { renderTable } from './sites-table.js';

/** `sites add`: checked (reached, logged in) before it is saved, unless --no-check. */
export async function addSite(name: string, options: AddOptions): Promise<number> {
  checkName(name);
  checkSiteUrl(options.url, '--url');
  const groups = (options.group ?? '').split(',').map((g) => g.trim()).filter(Boolean);
  for (const group of groups) checkName(group, 'group name');
  const file = profilesPath();
  const data = readProfiles(file);
  if ((findProfile(data, name) || data.sites.some((s) => s.network === name)) && !options.replace) {
    process.stderr.write(`A site profile "${name}" exists already: pass --replace to replace it, or choose another name.\n`);
    return 2;
  }
  const appPassword = await readPassword();
  if (!appPassword) {
    process.stderr.write(
      'No application password: pipe it in on stdin, type it when asked, or set CMS_APP_PASSWORD (never a flag).\n',
    );
    return 2;
  }
  const profile = { name, url: options.url, username: options.username, appPassword, groups };
  if (options.check) {
    const check = await checkSite(profile);
    if (!check.reachable) {
      process.stderr.write(
        `Not added: ${name} (${options.url}) could not be reached or logged in to: ${check.error?.code}: ${check.error?.message}\nFix the address or the password, or pass --no-check to save it anyway.\n`,
      );
      return 1;
    }
    process.stdout.write(`${describe(check)}${check.network ? ', a multisite network' : ''}\n`);
    if (check.network) {
      const { addNetwork } = await import('./sites-network.js');
      const code = await addNetwork(name, profile, options.replace);
      if (code !== undefined) return code;
    }
  }
  if (!putProfile(profile, file, Boolean(options.replace))) {
    // Added by another `sites add` while this one logged in.
    process.stderr.write(`A site profile "${name}" exists already: pass --replace to replace it, or choose another name.\n`);
    return 2;
  }
  process.stdout.write(`Saved site "${name}"${groups.length ? ` in ${groups.map((g) => `@${g}`).join(', ')}` : ''} to ${file}\n`);
  return 0;
}

function describe(check: SiteCheck): string {
  const versions = [check.wordpress && `WordPress ${check.wordpress}`, check.plugin && `companion plugin ${check.plugin}`];
  return `${check.name}: logged in as ${check.user}${versions.some(Boolean) ? ` (${versions.filter(Boolean).join(', ')})` : ''}`;
}

/** From stdin when it is piped (first line), else CMS_APP_PASSWORD, else asked on the terminal without echo. */
async function readPassword(): Promise<string> {
  if (!process.stdin.isTTY) {
    const piped = (await readStdin()).split('\n')[0]?.trim() ?? '';
    return piped || (process.env.CMS_APP_PASSWORD ?? '').trim();
  }
  if (process.env.CMS_APP_PASSWORD) return process.env.CMS_APP_PASSWORD.trim();
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  process.stdout.write('Application password (not shown): ');
  // Echo nothing of what is typed: the password must not stay on the screen or in scrollback.
  (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = () => undefined;
  try {
    return (await rl.question('')).trim();
  } finally {
    rl.close();
    process.stdout.write('\n');
  }
}

/** `sites list` (every profile) and `sites check NAME…`: reached at once, bounded; never a password. */
export async function listSites(spec: string[] | undefined, options: ListOptions): Promise<number> {
  const data = readProfiles();
  const concurrency = wholeNumberFlag('--concurrency', options.concurrency, 1);
  const chosen = spec ? selectSites(data, spec) : data.sites;
  if (!chosen.length) {
    process.stdout.write(`No site profiles in ${profilesPath()}: add one with \`cms-admin sites add\`.\n`);
    return 0;
  }
  const checks = options.offline
    ? undefined
    : await fanOut(chosen, (p) => checkSite(p), { concurrency });
  const rows = chosen.map((p, i) => {
    const c = checks?.[i];
    const check = c?.started ? c.value : undefined;
    return {
      name: p.name,
      url: p.url,
      user: p.username,
      groups: p.groups,
      ...(check
        ? {
            wordpress: check.wordpress,
            plugin: check.plugin,
            reachable: check.reachable,
            ...(check.error ? { error: check.error } : {}),
          }
        : {}),
    };
  });
  if (options.json) for (const row of rows) process.stdout.write(`${JSON.stringify(row)}\n`);
  else {
    const head = ['name', 'url', 'user', 'groups', 'wordpress', 'plugin', 'reachable'];
    const cells = rows.map((r) => [
      r.name,
      r.url,
      r.user,
      r.groups.map((g) => `@${g}`).join(' '),
      r.wordpress ?? (checks ? '?' : ''),
      r.plugin ?? (checks ? 'none' : ''),
      r.reachable === undefined ? '' : r.reachable ? 'yes' : `no: ${r.error?.code}: ${r.error?.message}`,
    ]);
    process.stdout.write(`${renderTable(head, cells)}\n`);
  }
  // `sites list` lists (the table says which site failed): 0; `sites check` checks: 1 when one failed (#52).
  return spec && rows.some((r) => r.reachable === false) ? 1 : 0;
}

export async function removeSite(name: string): Promise<number> {
  const gone = removeNetwork(name);
  if (gone.length) {
    const { removedNetworkLine } = await import('./sites-network.js');
    process.stdout.write(removedNetworkLine(name, gone));
    return 0;
  }
  if (removeProfile(name)) {
    process.stdout.write(`Removed site "${name}" (its change journal stays in ~/.local/state/cms-admin/changes).\n`);
    return 0;
  }
  process.stderr.write(`No site profile "${name}": \`cms-admin sites list\` shows them.\n`);
  return 1;
}

export interface AddOptions {
  url: string;
  username: string;
  group?: string;
  check: boolean;
  replace?: boolean;
}

export interface ListOptions {
  json?: boolean;
  offline?: boolean;
  concurrency: string;
}
