import { ConfigError } from '../config-error.js';
import type { ProfilesFile, SiteProfile } from './store.js';

/**
 * `--sites a,b`, `@group`, `all`, or a mix (`a,@clients`): the profiles chosen, in the order
 * given (a group or all: in the file's order), each once. A name or group that is not there is the operator's mistake, said with
 * the closest names (invalid_config, exit 2), before any site is reached.
 */
export function selectSites(data: ProfilesFile, spec: string | readonly string[]): SiteProfile[] {
  const parts = (typeof spec === 'string' ? spec.split(',') : spec).map((p) => p.trim()).filter(Boolean);
  if (!parts.length) throw new ConfigError('No sites given: name profiles (a,b), a group (@clients) or all.', 'invalid_config');
  if (!data.sites.length) {
    throw new ConfigError('No site profiles yet: add one with `cms-admin sites add NAME --url URL --username USER`.', 'invalid_config');
  }
  const chosen = new Set<string>();
  const names = data.sites.map((s) => s.name);
  const groups = [...new Set(data.sites.flatMap((s) => s.groups))];
  for (const part of parts) {
    if (part === 'all') for (const name of names) chosen.add(name);
    else if (part.startsWith('@')) {
      const group = part.slice(1);
      const members = data.sites.filter((s) => s.groups.includes(group));
      if (!members.length) throw unknown('group', part, groups.map((g) => `@${g}`));
      for (const s of members) chosen.add(s.name);
    } else if (names.includes(part)) chosen.add(part);
    else throw unknown('site', part, names);
  }
  return [...chosen].map((name) => data.sites.find((s) => s.name === name) as SiteProfile);
}

function unknown(kind: 'site' | 'group', name: string, candidates: string[]): ConfigError {
  // Its own distance, not envelope.ts's closestNames: the call pipeline will import this room (#40).
  const bare = name.toLowerCase();
  const close = candidates.filter((c) => distance(bare, c.toLowerCase()) <= Math.max(1, Math.floor(c.length / 3))).slice(0, 3);
  const known = candidates.length ? ` Known: ${candidates.slice(0, 10).join(', ')}${candidates.length > 10 ? ', …' : ''}.` : '';
  return new ConfigError(
    `No ${kind} "${name}" among the site profiles${close.length ? ` (did you mean ${close.join(', ')}?)` : ''}.${known} \`cms-admin sites list\` shows them.`,
    'invalid_config',
  );
}

/** Edit distance (names are short: at most 63 characters). */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length] ?? 0;
}
