import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORDPRESS_DEFAULT_ROLES } from '../../../src/tools/users/default-roles.js';
import { expectNoSecretsLeaked, runOk, wpPhp } from './helpers.js';

interface Roles {
  source: string;
  total: number;
  items: Array<{ role: string; name: string; capabilities: string[] }>;
  note?: string;
}

const CUSTOM = 'cms_test_reviewer';

describe('list-user-roles', () => {
  // A role only this site has, added the way a plugin would (add_role), not through the toolkit.
  beforeAll(async () => {
    await wpPhp(
      `add_role('${CUSTOM}', 'Reviewer', ['read' => true, 'moderate_comments' => true, 'edit_posts' => false]);`,
    );
  });
  afterAll(async () => {
    await wpPhp(`remove_role('${CUSTOM}');`);
    expectNoSecretsLeaked();
  });

  it('lists the site’s live roles, custom ones included, with the capabilities they grant', async () => {
    const result = await runOk<Roles>('list-user-roles');

    expect(result.source).toBe('site');
    expect(result.note).toBeUndefined();
    expect(result.total).toBe(result.items.length);
    const byRole = new Map(result.items.map((r) => [r.role, r]));
    expect([...byRole.keys()]).toEqual(
      expect.arrayContaining(['administrator', 'editor', 'author', 'contributor', 'subscriber', CUSTOM]),
    );
    // Granted only: edit_posts => false is not a capability of the role.
    // users_count: how many accounts have it (plugin 0.6.0); nobody has this new one.
    expect(byRole.get(CUSTOM)).toEqual({ role: CUSTOM, name: 'Reviewer', capabilities: ['moderate_comments', 'read'], users_count: 0 });
    expect(byRole.get('subscriber')?.capabilities).toEqual(['level_0', 'read']);
    expect(byRole.get('administrator')?.capabilities).toEqual(
      expect.arrayContaining(['manage_options', 'promote_users', 'edit_users']),
    );
  });

  it('finds a role by slug or name, and pages', async () => {
    // Other test files may leave roles of their own: every match must match, and ours be there.
    const reviewers = (await runOk<Roles>('list-user-roles', { search: 'reviewer' })).items;
    expect(reviewers.map((r) => r.role)).toContain(CUSTOM);
    for (const r of reviewers) expect(`${r.role} ${r.name}`.toLowerCase()).toContain('reviewer');
    const editors = (await runOk<Roles>('list-user-roles', { search: 'Editor' })).items;
    expect(editors.map((r) => r.role)).toContain('editor');
    expect(editors.map((r) => r.role)).not.toContain('author');
    const all = await runOk<Roles>('list-user-roles');
    const first = await runOk<Roles & { next_cursor: string }>('list-user-roles', { limit: 2 });
    expect(first.items).toEqual(all.items.slice(0, 2));
    const second = await runOk<Roles>('list-user-roles', { limit: 2, cursor: first.next_cursor });
    expect(second.items).toEqual(all.items.slice(2, 4));
  });

  it('matches the built-in fallback list for WordPress’s own roles on an unmodified site', async () => {
    const result = await runOk<Roles>('list-user-roles');
    for (const fallback of WORDPRESS_DEFAULT_ROLES) {
      const { users_count, ...role } = result.items.find((r) => r.role === fallback.role) as Roles['items'][number] & { users_count?: number };
      expect(role).toEqual(fallback);
      expect(users_count).toBeTypeOf('number');
    }
  });
});
