/**
 * Capabilities in plain words and in groups (issue #50): a question names each powerful one as a
 * person reads it, and list-user-roles groups them. Power is judged from capabilities, never
 * from role names. https://wordpress.org/documentation/article/roles-and-capabilities/
 */
import { CAPABILITY_TABLE } from './capability-table.js';
import { byPower } from './capability-maps.js';

export type CapabilityGroup = 'content' | 'taxonomy' | 'users' | 'site settings' | 'code-running';

const POWERFUL: Readonly<Record<string, { group: string; words: string }>> = CAPABILITY_TABLE.powerful;

/** Words for capabilities that are not powers (find-users-with-capability names any). */
const CONTENT_WORDS: Record<string, string> = {
  edit_others_posts: 'edit others’ posts',
  delete_others_posts: 'delete others’ posts',
  edit_others_pages: 'edit others’ pages',
  delete_others_pages: 'delete others’ pages',
  publish_pages: 'publish pages',
  edit_pages: 'edit pages',
  delete_pages: 'delete pages',
  manage_categories: 'manage categories and tags',
  moderate_comments: 'moderate comments',
  manage_links: 'manage links',
  read_private_posts: 'read private posts',
  read_private_pages: 'read private pages',
  edit_private_posts: 'edit private posts',
  edit_private_pages: 'edit private pages',
  edit_published_pages: 'edit published pages',
  delete_published_pages: 'delete published pages',
  delete_private_posts: 'delete private posts',
  delete_private_pages: 'delete private pages',
};

/** The group list-user-roles shows a capability in (network and legacy powers count as settings). */
export function capabilityGroup(cap: string): CapabilityGroup {
  const group = POWERFUL[cap]?.group;
  if (group === 'users' || group === 'code-running') return group;
  if (group) return 'site settings';
  if (/categor|_terms$|^manage_.*_terms?$/.test(cap)) return 'taxonomy';
  return 'content';
}

/**
 * Capabilities that manage accounts, settings, the network or run code, and the user levels above
 * Author's (level_3 … level_10): the one table's (capabilities.json). Any grant of one is asked about.
 */
export function isPowerful(cap: string): boolean {
  return cap in POWERFUL;
}

/** "change every site setting (manage_options)". */
export function inWords(cap: string): string {
  const words = POWERFUL[cap]?.words ?? CONTENT_WORDS[cap];
  return words ? `${words} (${cap})` : cap;
}

/** `caps` as items of a question, in their order: the user levels one item at the end, in the words of the highest. */
function items(caps: readonly string[]): Array<[name: string, words: string]> {
  const levels = caps.filter((cap) => cap.startsWith('level_')).sort(byPower);
  const out: Array<[string, string]> = caps.filter((cap) => !levels.includes(cap)).map((cap) => [cap, inWords(cap)]);
  const [top] = levels;
  if (top) {
    const numbers = levels.map((cap) => Number(cap.slice(6)));
    const runs = numbers.every((n, i) => i === 0 || numbers[i - 1] === n + 1);
    const names = levels.length > 2 && runs ? `${levels[levels.length - 1]} to ${top}` : levels.join(', ');
    out.push([names, `${POWERFUL[top]?.words ?? top} (${names})`]);
  }
  return out;
}

/** The first `max` items' words, then how many more (and, with `named`, which). */
function said(list: Array<[string, string]>, max: number, named: boolean): string {
  const more = list.length - max;
  const rest = named ? ` (${list.slice(max).map(([name]) => name).join(', ')})` : '';
  return list.slice(0, max).map(([, words]) => words).join('; ') + (more > 0 ? `; and ${more} more${rest}` : '');
}

/** The powerful ones of `caps`, in words, most dangerous first: "…; …" (the first `max`, then how many more and which). */
export function powerWords(caps: readonly string[], max = 6): string {
  return said(items([...new Set(caps)].filter(isPowerful).sort(byPower)), max, true);
}

/**
 * The capabilities as given (already judged: risk.ts' `powersOf`, everything outside the safe
 * list), in words: the first `max`, then how many more. The bulk account tools' questions.
 */
export function powersInWords(capabilities: readonly string[], max = 6): string {
  return said(items(capabilities), max, false);
}

/** Granted capabilities by group, for list-user-roles (level_N left out: legacy, the other capabilities say it). */
export function grouped(caps: readonly string[]): Partial<Record<CapabilityGroup, string[]>> {
  const out: Partial<Record<CapabilityGroup, string[]>> = {};
  for (const cap of [...caps].sort()) {
    if (/^level_\d+$/.test(cap)) continue;
    const group = capabilityGroup(cap);
    out[group] = [...(out[group] ?? []), cap];
  }
  return out;
}
