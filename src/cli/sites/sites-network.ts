import { checkSite } from '../../sites/check.js';
import { fanOut } from '../../call/index.js';
import { networkSites, planNetwork } from '../../sites/network.js';
import { type SiteProfile, profilesPath, putProfiles, readProfiles } from '../../sites/store.js';

/**
 * `sites add NAME` on a multisite network (docs/fleets.md): one profile per site of the network,
 * `NAME/main`, `NAME/<slug>`, in the group `@NAME`, each on its own site URL, each logged in to
 * before it is saved. Returns the exit code, or undefined when the account cannot list the
 * network's sites (not a super admin): the caller then saves NAME as one site, as before.
 */
export async function addNetwork(name: string, base: SiteProfile, replace: boolean | undefined): Promise<number | undefined> {
  let sites: Awaited<ReturnType<typeof networkSites>>;
  try {
    sites = await networkSites(base);
  } catch (err) {
    const { code, status } = err as { code?: unknown; status?: unknown };
    // The plugin refuses the network listing to anyone but a super admin (401/403, its own code).
    if (status === 401 || status === 403) {
      process.stderr.write(
        `${name} is a multisite network, but ${base.username} is not a super admin there (${String(code)}), so its sites cannot be listed: saving ${base.url} as one site. A super admin's application password adds every site (NAME/slug, @NAME).\n`,
      );
      return undefined;
    }
    process.stderr.write(`Not added: the sites of network ${name} could not be read: ${String(code ?? 'error')}: ${(err as Error).message.split('\n')[0]}\n`);
    return 1;
  }
  const plan = planNetwork(name, base, sites);
  const file = profilesPath();
  const existing = readProfiles(file).sites;
  const ours = (s: SiteProfile) => s.network === name || s.name === name || plan.profiles.some((p) => p.name === s.name);
  const clash = existing.filter(ours);
  if (clash.length && !replace) {
    process.stderr.write(
      `Profiles exist already for network ${name}: ${clash.map((s) => s.name).join(', ')}. Pass --replace to replace them, or choose another name.\n`,
    );
    return 2;
  }
  const foreign = existing.filter((s) => !ours(s) && s.groups.includes(name));
  if (foreign.length) {
    process.stderr.write(`The group @${name} holds other sites already (${foreign.map((s) => s.name).join(', ')}): choose another name for the network.\n`);
    return 2;
  }
  // Each site is logged in to on its own REST root; one that cannot be is named, not saved.
  const checks = await fanOut(plan.profiles, (p) => checkSite(p), { concurrency: 8 });
  const saved: SiteProfile[] = [];
  const failed: string[] = [];
  for (const [i, profile] of plan.profiles.entries()) {
    const c = checks[i];
    const check = c?.started ? c.value : undefined;
    if (check?.reachable) saved.push(profile);
    else failed.push(`${profile.name} (${profile.url}): ${check?.error?.code ?? 'not_started'}: ${check?.error?.message ?? ''}`);
  }
  if (!saved.length) {
    process.stderr.write(`Not added: no site of network ${name} could be logged in to:\n  ${failed.join('\n  ')}\n`);
    return 1;
  }
  putProfiles(saved, ours, file);
  const width = Math.max(...saved.map((p) => p.name.length));
  process.stdout.write(
    `Network ${name}: ${saved.length} of ${sites.length} site(s) saved to ${file}, selected together as @${name}:\n` +
      saved.map((p) => `  ${p.name.padEnd(width)}  ${p.url}\n`).join(''),
  );
  for (const s of plan.skipped) process.stderr.write(`Not added: ${s.name} (${s.site.url}): ${s.reason}; add it with \`cms-admin sites add ${s.name} --url ${s.site.url} --username ${base.username} --group ${name}\`.\n`);
  for (const line of failed) process.stderr.write(`Not added (could not log in): ${line}\n`);
  return failed.length ? 1 : 0;
}

/** `sites remove NAME` for a network: every profile it saved. */
export function removedNetworkLine(name: string, gone: string[]): string {
  return `Removed network "${name}": its ${gone.length} site profile(s) ${gone.join(', ')} (the sites themselves are not touched; their change journals stay in ~/.local/state/cms-admin/changes).\n`;
}
