import type { TermKind } from './terms.js';

/**
 * Registered term meta in a merge (#51): the target gets each key a source has and it has not;
 * a source's value for a key the target already has (or an earlier source gave it) is dropped,
 * and named. With the companion plugin (`cms_meta_keys`) only the rows a term really has count;
 * without it a value other than empty, 0 or false does (REST shows defaults for unset keys).
 */
export interface MergeMeta {
  carry: Record<string, unknown>;
  dropped: string[];
}

type Raw = { id: number; meta?: unknown; cms_meta_keys?: unknown };

function stored(term: Raw | undefined): Record<string, unknown> {
  const meta = term?.meta && typeof term.meta === 'object' && !Array.isArray(term.meta) ? (term.meta as Record<string, unknown>) : {};
  const keys = Array.isArray(term?.cms_meta_keys) ? new Set(term.cms_meta_keys.map(String)) : undefined;
  return Object.fromEntries(
    Object.entries(meta).filter(([key, value]) => (keys ? keys.has(key) : value !== '' && value !== null && value !== false && value !== 0)),
  );
}

/** What planMerge reads of the terms anyway: their meta comes with them (no request of its own). */
export const MERGE_TERM_FIELDS = 'id,parent,meta,cms_meta_keys';

export function mergeMeta(raws: readonly Raw[], kind: TermKind, sourceIds: number[], targetId: number): MergeMeta {
  const byId = new Map(raws.map((r) => [r.id, r]));
  const has = stored(byId.get(targetId));
  const carry: Record<string, unknown> = {};
  const dropped: string[] = [];
  for (const id of sourceIds) {
    for (const [key, value] of Object.entries(stored(byId.get(id)))) {
      const kept = key in carry ? carry[key] : has[key];
      if (kept === undefined) carry[key] = value;
      else if (JSON.stringify(kept) !== JSON.stringify(value)) dropped.push(`${key} ${JSON.stringify(value)} of ${kind.noun} ${id}`);
    }
  }
  return { carry, dropped };
}
