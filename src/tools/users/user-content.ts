import type { WordPressClient } from '../../client/index.js';
import { COMPANION_NAMESPACE } from '../companion.js';
import { forUser } from './records.js';

interface ContentType {
  type: string;
  label: string;
  total: number;
  statuses: Record<string, number>;
  /** Whether wp_delete_user() deletes these when no one inherits them (otherwise they stay, authorless). */
  deleted_with_user: boolean;
  /** Of those, how many wp_delete_post() moves to the Trash instead (posts and pages). */
  to_trash: number;
}

export interface UserContent {
  types: ContentType[];
  links: number;
  trash_days: number;
}

/** Everything the user authored, every status and post type (companion plugin 0.3.0). */
export function loadUserContent(client: WordPressClient, userId: number): Promise<UserContent> {
  return forUser(userId, async () => {
    const content = await client.get<UserContent>(`/${COMPANION_NAMESPACE}/users/${userId}/content`);
    // Most first: what a person checks before approving.
    content.types.sort((a, b) => b.total - a.total || a.type.localeCompare(b.type));
    return content;
  });
}

const sum = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

/** "12 item(s): Posts 10 (publish 7, draft 3), Pages 2 (private 2)". */
export function describeContent(types: ContentType[]): string {
  if (!types.length) return 'no posts';
  const parts = types.map(
    (t) =>
      `${t.label} ${t.total} (${Object.entries(t.statuses)
        .map(([status, n]) => `${status} ${n}`)
        .join(', ')})`,
  );
  return `${types.reduce((n, t) => n + t.total, 0)} item(s): ${parts.join(', ')}`;
}

/** What happens to each post type's items: reassigned, trashed, deleted, or left without an author. */
export function contentOutcome(content: UserContent, reassigned: boolean) {
  const by = (pick: (t: ContentType) => number) =>
    Object.fromEntries(content.types.map((t) => [t.type, pick(t)]).filter(([, n]) => n));
  if (reassigned) return { posts_reassigned: by((t) => t.total) };
  return {
    posts_trashed: by((t) => (t.deleted_with_user ? t.to_trash : 0)),
    posts_deleted: by((t) => (t.deleted_with_user ? t.total - t.to_trash : 0)),
    posts_left_without_author: by((t) => (t.deleted_with_user ? 0 : t.total)),
  };
}

/** What a delete does with the content, in words for the approval. */
export function contentFate(content: UserContent, heir: string | undefined): string {
  const links = content.links ? ` and ${content.links} link(s)` : '';
  if (heir) return `give ${describeContent(content.types)}${links} to ${heir}`;
  const outcome = contentOutcome(content, false);
  const parts = [`its ${describeContent(content.types)}${links} go`];
  const list = (counts: Record<string, number>) =>
    Object.entries(counts)
      .map(([type, n]) => `${type} ${n}`)
      .join(', ');
  if (sum(outcome.posts_trashed))
    parts.push(`to the Trash: ${list(outcome.posts_trashed)} (emptied after ${content.trash_days} days, authorless)`);
  if (sum(outcome.posts_deleted) || content.links)
    parts.push(`DELETED for good: ${list(outcome.posts_deleted) || 'none'}${links}`);
  if (sum(outcome.posts_left_without_author))
    parts.push(`kept without an author: ${list(outcome.posts_left_without_author)}`);
  return `${parts[0]} ${parts.slice(1).join('; ')}`;
}
