import { describe, expect, it } from 'vitest';
import { capabilitiesBeyond } from '../../src/tools/users/guards.js';
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

describe('capabilitiesBeyond', () => {
  it('leaves out role names, legacy levels and what the caller has; power first', () => {
    const target = { administrator: true, level_10: true, read: true, manage_options: true, zz_custom: true, edit_users: false };
    expect(capabilitiesBeyond(target, { read: true }, ['administrator'])).toEqual(['manage_options', 'zz_custom']);
    expect(capabilitiesBeyond(target, { read: true, manage_options: true, zz_custom: true }, ['administrator'])).toEqual([]);
  });
});
