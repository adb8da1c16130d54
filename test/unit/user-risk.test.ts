import { describe, expect, it } from 'vitest';
import { capabilitiesBeyond, capabilityMap, capabilityNames, changedEntries, roleGrants } from '../../src/tools/users/capability-maps.js';
import { WORDPRESS_DEFAULT_ROLES } from '../../src/tools/users/default-roles.js';
import { powerfulOf } from '../../src/tools/users/risk.js';

/** Issue #26, finding 4: everything beyond Author-and-below is powerful, named most dangerous first. */
describe('powerfulOf', () => {
  const caps = (role: string) => WORDPRESS_DEFAULT_ROLES.find((r) => r.role === role)?.capabilities ?? [];

  it('finds nothing in Author, Contributor, Subscriber', () => {
    for (const role of ['author', 'contributor', 'subscriber']) expect(powerfulOf(caps(role)), role).toEqual([]);
  });

  it('counts every capability that runs code, and any unknown one', () => {
    for (const cap of ['edit_plugins', 'edit_themes', 'install_plugins', 'upload_plugins', 'unfiltered_upload', 'edit_files', 'manage_shop']) {
      expect(powerfulOf(['read', cap])).toEqual([cap]);
    }
  });

  it('names the most dangerous first', () => {
    expect(powerfulOf(caps('administrator')).slice(0, 3)).toEqual(['manage_options', 'promote_users', 'edit_users']);
    expect(powerfulOf(['moderate_comments', 'unfiltered_html', 'edit_plugins'])).toEqual(['edit_plugins', 'unfiltered_html', 'moderate_comments']);
  });
});

describe('capabilitiesBeyond (#58: capability maps)', () => {
  it('compares maps: role-slug keys only when no capability’s name, levels above Author’s included', () => {
    const names = capabilityNames([{ role: 'administrator', capabilities: ['manage_options', 'zz_custom'] }]);
    const target = capabilityMap({ administrator: true, level_10: true, level_1: true, read: true, manage_options: true, zz_custom: true, edit_users: false }, ['administrator'], names);
    expect(capabilitiesBeyond(target, { read: true })).toEqual(['manage_options', 'level_10', 'zz_custom']);
    expect(capabilitiesBeyond(target, { read: true, manage_options: true, zz_custom: true, level_10: true })).toEqual([]);
  });

  it('a role whose slug is a capability’s name grants it to its holders', () => {
    const names = capabilityNames([{ role: 'manage_options', capabilities: ['read'] }]);
    expect(names.has('manage_options')).toBe(true);
    expect(capabilityMap({ manage_options: true, read: true, editor: true }, ['manage_options', 'editor'], names)).toEqual({ manage_options: true, read: true });
    expect(roleGrants('manage_options', ['read'], names)).toEqual(['read', 'manage_options']);
    expect(roleGrants('editor', ['read'], names)).toEqual(['read']);
    // A plugin's capability some role grants is a capability's name too; a plain slug is not.
    const shop = capabilityNames([{ role: 'shop_manager', capabilities: ['edit_shop_orders'] }]);
    expect([shop.has('edit_shop_orders'), shop.has('shop_manager'), shop.has('level_7'), shop.has('create_sites'), shop.has('edit_user')]).toEqual([true, false, true, true, true]);
  });

  it('entries a change sets, flips or drops, denials included', () => {
    expect(changedEntries({ read: true, edit_posts: true, manage_options: false }, { read: true, edit_posts: false, promote_users: false })).toEqual([
      'manage_options',
      'promote_users',
      'edit_posts',
    ]);
    expect(changedEntries(null, { read: true })).toEqual(['read']);
  });
});
