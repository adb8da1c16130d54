import { type ChangeEntry, newChangeId } from './journal.js';
import type { UndoState } from './state.js';
import type { RestoreOutcome } from './types.js';
import { undoneWords } from './undo-words.js';

/** What undoing one change did (or, in a dry run, would do). */
export interface UndoReport {
  change_id: string;
  /** The journal entry of this undo (undo it to redo the change). */
  undo_change_id?: string;
  dry_run?: boolean;
  restored: string[];
  /** `failed`: a write that failed (a fault, not someone's edit). */
  conflicts: Array<{ item: string; reason: string; failed?: true }>;
  /** Items already as they were (nothing written), or the whole change, with why. */
  skipped: string[];
  /** What an undo of this change cannot give back, and what it gave back besides (a deleted account, posts out of the Trash). */
  notes?: string[];
  /**
   * The undo left something (a write failed, or an object changed since is a conflict): the
   * change is not fully undone, the journal says so, and undoing it again finishes it.
   */
  incomplete?: true;
}

/** The report of one restore: `incomplete` whenever anything is left (#34.4). */
export function undoReport(entry: ChangeEntry, target: UndoState, out: RestoreOutcome, dryRun: boolean): UndoReport {
  const notes = [...(target.not_restorable ?? [])];
  const trashed = Object.keys(target.trashed ?? {}).length;
  if (trashed) {
    const back = (out.untrashed ?? []).length;
    notes.push(`${back} of ${trashed} trashed post(s) ${dryRun ? 'to restore' : 'restored'} from the Trash`);
  }
  return {
    change_id: entry.change_id,
    restored: out.restored,
    conflicts: out.conflicts,
    skipped: out.skipped,
    ...(notes.length ? { notes } : {}),
    ...(out.failed || out.conflicts.length ? { incomplete: true as const } : {}),
    ...(dryRun ? { dry_run: true as const } : {}),
  };
}

/**
 * The journal entry of an undo: the site before it and after it (undoing it is a redo). Its
 * posts' terms as a delta too, where the undo reversed one; posts it took out of the Trash are
 * not put back by a redo (it says so).
 */
export function undoEntryOf(
  entry: ChangeEntry,
  out: RestoreOutcome,
  opts: { force?: boolean; recordAs?: string },
  user: { user?: string },
): ChangeEntry {
  const { force } = opts;
  const usersDeleted = Object.entries(out.result.users ?? {}).filter(([id, user]) => !user && out.current.users?.[id]);
  const why = [
    ...(usersDeleted.length ? [`it deleted ${usersDeleted.map(([id]) => `user ${id}${out.current.users?.[id]?.username ? ` (${out.current.users[id]?.username})` : ''}`).join(', ')}, which cannot be recreated`] : []),
    ...(out.untrashed?.length ? [`it took ${out.untrashed.length} post(s) out of the Trash; a redo does not trash them again`] : []),
  ];
  const before = mapState(out.current, (id) => out.idMap[id] ?? id);
  const after: UndoState = { ...out.result, ...(Object.keys(out.idMap).length ? { id_map: out.idMap } : {}) };
  if (out.postChanges) {
    delete before.posts;
    delete after.posts;
    after.post_changes = out.postChanges;
  }
  const incomplete = out.failed || out.conflicts.length > 0;
  return {
    change_id: newChangeId(),
    at: new Date().toISOString(),
    ...user,
    tool: opts.recordAs ?? 'undo',
    params: { change_id: entry.change_id, ...(force ? { force: true } : {}) },
    // Plain words (#52.11): "deleted category 127 'Press' (it was created by change cX)".
    summary: `undid ${entry.change_id} (${entry.summary}): ${undoneWords(out.restored, entry.change_id)}${out.conflicts.length ? `, ${out.conflicts.length} left` : ''}${incomplete ? ' (incomplete: undo it again to finish)' : ''}`,
    reversible: why.length === 0,
    ...(why.length ? { why_not: why.join('; ') } : {}),
    before,
    after,
    undoes: entry.change_id,
    ...(incomplete ? { incomplete: true } : {}),
    // In the run of the change it undoes: `undo --run` reads a run's entries only, undos included.
    ...(entry.run_id ? { run_id: entry.run_id } : {}),
  };
}

/** A state with every term id (keys, parents, posts' terms and changes) in today's ids. */
export function mapState(state: UndoState | undefined, resolve: (id: number) => number): UndoState {
  const s = state ?? {};
  const out: UndoState = { ...s };
  delete out.id_map;
  if (s.terms)
    out.terms = Object.fromEntries(
      Object.entries(s.terms).map(([id, term]) => [
        String(resolve(Number(id))),
        term && { ...term, parent: term.parent ? resolve(term.parent) : 0 },
      ]),
    );
  if (s.posts)
    out.posts = Object.fromEntries(
      Object.entries(s.posts).map(([id, terms]) => [id, terms.map(resolve).sort((a, b) => a - b)]),
    );
  if (s.post_changes)
    out.post_changes = Object.fromEntries(
      Object.entries(s.post_changes).map(([id, c]) => [id, { added: c.added.map(resolve), removed: c.removed.map(resolve) }]),
    );
  if (s.also) out.also = mapState(s.also, resolve);
  return out;
}
