import { describe, expect, it } from 'vitest';
import { capabilityGroup, grouped, isPowerful, powerWords } from '../../src/tools/users/capability-words.js';
import { applyCaps, capsDiff, reviewRoleChange } from '../../src/tools/users/role-change.js';

describe('capabilities in plain words (#50)', () => {
  it('judges power from capabilities: accounts, settings and code-running ask; content and taxonomy do not', () => {
    for (const cap of ['manage_options', 'edit_users', 'promote_users', 'create_users', 'delete_users', 'unfiltered_html', 'edit_plugins', 'edit_themes', 'install_plugins', 'activate_plugins', 'update_core', 'edit_files'])
      expect(isPowerful(cap), cap).toBe(true);
    for (const cap of ['read', 'edit_posts', 'publish_posts', 'manage_categories', 'moderate_comments', 'upload_files', 'manage_links'])
      expect(isPowerful(cap), cap).toBe(false);
    expect(capabilityGroup('manage_categories')).toBe('taxonomy');
    expect(capabilityGroup('unfiltered_html')).toBe('code-running');
  });

  it('names each powerful capability in words, most dangerous first, bounded', () => {
    expect(powerWords(['edit_posts', 'unfiltered_html', 'manage_options'])).toBe(
      'change every site setting (manage_options); publish scripts and any HTML (unfiltered_html)',
    );
    const many = powerWords(['manage_options', 'edit_users', 'promote_users', 'create_users', 'delete_users', 'list_users', 'install_plugins', 'edit_files']);
    expect(many.split('; ')).toHaveLength(7);
    expect(many).toMatch(/; and 2 more \(install_plugins, edit_files\)$/);
  });

  it('groups a role’s capabilities, level_N left out', () => {
    expect(grouped(['read', 'level_0', 'manage_categories', 'list_users', 'edit_theme_options', 'edit_themes'])).toEqual({
      content: ['read'],
      taxonomy: ['manage_categories'],
      users: ['list_users'],
      'site settings': ['edit_theme_options'],
      'code-running': ['edit_themes'],
    });
  });

  it('a role change asks when it grants power or takes access from accounts that have the role', () => {
    const from = { read: true, edit_posts: true };
    const plain = applyCaps(from, ['moderate_comments']);
    expect(capsDiff(from, plain)).toEqual({ gained: ['moderate_comments'], lost: [] });
    expect(reviewRoleChange({ slug: 'r', name: 'R', from, to: plain, users: 3 }, 'x').approval).toBe('none');
    const strong = applyCaps(from, ['promote_users']);
    expect(reviewRoleChange({ slug: 'r', name: 'R', from, to: strong, users: 0 }, 'x')).toEqual({
      approval: 'required',
      summary: 'x; it grants power: give accounts roles (promote_users)',
    });
    const less = applyCaps(from, [], ['edit_posts']);
    expect(reviewRoleChange({ slug: 'r', name: 'R', from, to: less, users: 0 }, 'x').approval).toBe('none');
    expect(reviewRoleChange({ slug: 'r', name: 'R', from, to: less, users: 2 }, 'x')).toMatchObject({ approval: 'required', summary: 'x (2 accounts have it)' });
    expect(reviewRoleChange({ slug: 'r', name: 'R', from, to: null, users: 1 }, 'x').approval).toBe('required');
  });
});
