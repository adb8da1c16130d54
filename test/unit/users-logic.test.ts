import { describe, expect, it } from 'vitest';
import type { WordPressClient } from '../../src/client/index.js';
import { hasCompanion, requireCompanion } from '../../src/tools/companion.js';
import { parseIsoDate } from '../../src/tools/users/dates.js';
import { checkPassword } from '../../src/tools/users/passwords.js';
import { maskEmail, toUser } from '../../src/tools/users/records.js';
import { loadRoles, resolveRole } from '../../src/tools/users/roles.js';

/** Just enough of a client for the companion detection: a REST index and the roles route. */
function fakeClient(namespaces: string[], version?: string): WordPressClient {
  return {
    namespaces: async () => namespaces,
    index: async () => ({ namespaces, ...(version && { cms_admin_companion: { version } }) }),
    warnOnce: () => undefined,
    get: async (path: string) => {
      if (path === '/cms-admin/v1/roles')
        return { roles: [{ role: 'shop_manager', name: 'Shop manager', capabilities: ['read'] }] };
      throw new Error(`unexpected GET ${path}`);
    },
  } as unknown as WordPressClient;
}

describe('companion plugin detection', () => {
  const bare = fakeClient(['oembed/1.0', 'wp/v2', 'wp-site-health/v1']);
  const equipped = fakeClient(['oembed/1.0', 'cms-admin/v1', 'wp/v2']);

  it('looks for cms-admin/v1 among the REST namespaces', async () => {
    expect(await hasCompanion(bare)).toBe(false);
    expect(await hasCompanion(equipped)).toBe(true);
  });

  it('fails with companion_plugin_missing and how to install it', async () => {
    await expect(requireCompanion(bare, 'Disabling a user', 'users/disable')).rejects.toMatchObject({
      code: 'companion_plugin_missing',
      message: expect.stringContaining('Disabling a user needs the cms-admin-companion'),
      hint: expect.stringMatching(/cms-admin plugin install --wp-content .*cms-admin plugin zip/),
    });
    await expect(requireCompanion(equipped, 'x', 'users/disable')).resolves.toBeUndefined();
  });

  it('by version: an older plugin says what to update, and is not used for routes it lacks', async () => {
    const old = fakeClient(['cms-admin/v1', 'wp/v2'], '0.0.9');
    await expect(requireCompanion(old, 'Disabling a user', 'users/disable')).rejects.toMatchObject({
      code: 'companion_plugin_outdated',
      message: expect.stringContaining('update the companion plugin (have 0.0.9, need 0.1.0)'),
    });
    // 0.1.0 reported no version; its post-terms route handles posts only.
    expect(await hasCompanion(equipped, 'post-terms')).toBe(false);
    expect(await hasCompanion(fakeClient(['cms-admin/v1'], '0.2.0'), 'post-terms')).toBe(false);
    expect(await hasCompanion(fakeClient(['cms-admin/v1'], '0.3.0'), 'post-terms')).toBe(true);
    expect(await hasCompanion(fakeClient(['cms-admin/v1'], '0.10.0'), 'post-terms')).toBe(true);
  });

  it('sessions need 0.3.0, user deletion 0.3.1; a missing plugin names that version too', async () => {
    const older = fakeClient(['cms-admin/v1', 'wp/v2'], '0.2.0');
    for (const [route, need] of [
      ['users/sessions', '0.3.0'],
      ['users/delete', '0.3.1'],
    ] as const) {
      await expect(requireCompanion(older, 'Logging a user out', route)).rejects.toMatchObject({
        code: 'companion_plugin_outdated',
        message: expect.stringContaining(`update the companion plugin (have 0.2.0, need ${need})`),
      });
    }
    // 0.3.0's delete of an account owning links, without heir, died halfway.
    await expect(
      requireCompanion(fakeClient(['cms-admin/v1'], '0.3.0'), 'Deleting a user', 'users/delete'),
    ).rejects.toMatchObject({ code: 'companion_plugin_outdated' });
    await expect(requireCompanion(bare, 'Logging a user out', 'users/sessions')).rejects.toMatchObject({
      code: 'companion_plugin_missing',
      message: expect.stringContaining('(0.3.0 or newer)'),
    });
  });

  it('falls back to WordPress’s default roles, labelled, never silently', async () => {
    const roles = await loadRoles(bare);
    expect(roles.source).toBe('wordpress-defaults');
    expect(roles.note).toContain('not necessarily this site');
    expect(roles.items.map((r) => r.role)).toEqual(['administrator', 'editor', 'author', 'contributor', 'subscriber']);
    expect(await loadRoles(equipped)).toEqual({
      source: 'site',
      items: [{ role: 'shop_manager', name: 'Shop manager', capabilities: ['read'] }],
    });
  });

  it('resolves roles by slug or label on the site, and leaves them to WordPress without the plugin', async () => {
    expect(await resolveRole(equipped, 'Shop Manager')).toBe('shop_manager');
    await expect(resolveRole(equipped, 'editor')).rejects.toMatchObject({
      code: 'unknown_role',
      hint: expect.stringContaining('shop_manager'),
    });
    expect(await resolveRole(bare, 'anything')).toBe('anything');
  });
});

describe('user records', () => {
  it('reports the disabled state as unknown (null) when the site does not expose it', () => {
    expect(toUser({ id: 3, username: 'a', name: 'A &amp; B' })).toMatchObject({ name: 'A & B', disabled: null });
    expect(toUser({ id: 3, cms_disabled: true }).disabled).toBe(true);
  });

  it('masks email addresses', () => {
    expect(maskEmail('jane.doe@example.com')).toBe('j***e@example.com');
    expect(maskEmail('jo@example.com')).toBe('j***@example.com');
    expect(maskEmail('broken')).toBe('***');
  });
});

describe('registered_after dates', () => {
  it.each([
    ['2024-05-01', '2024-05-01T00:00:00.000Z'],
    ['2024-05-01T14:30', '2024-05-01T14:30:00.000Z'],
    ['2024-05-01T14:30:00Z', '2024-05-01T14:30:00.000Z'],
    ['2024-05-01T14:30:00.250+02:00', '2024-05-01T12:30:00.250Z'],
    ['2024-05-01 14:30:00+0200', '2024-05-01T12:30:00.000Z'],
  ])('%s → %s', (input, iso) => {
    expect(new Date(parseIsoDate(input, 'registered_after')).toISOString()).toBe(iso);
  });

  it.each(['', 'yesterday', '2024-02-30', '2023-02-29', '2024-5-1', '2024-05-01T25:00', '1714570000'])(
    'refuses %j',
    (input) => {
      expect(() => parseIsoDate(input, 'registered_after')).toThrow(/not an ISO 8601 date/);
    },
  );
});

describe('password rules', () => {
  const account = { username: 'margaret', email: 'maggie.h@example.com' };

  it('accepts a long, varied password', () => {
    expect(() => checkPassword('correct horse battery staple', account)).not.toThrow();
  });

  it.each([
    ['short1!', 'fewer than 12'],
    ['aaaaaaaaaaaaaaaa', 'fewer than 6 different'],
    [' padded password ', 'whitespace'],
    ['back\\slash-password', 'backslash'],
    ['Margaret-is-great', 'username'],
    ['maggie.h@example.com', 'email address'],
    ['my-maggie.h-secret', 'email name'],
  ])('refuses %j (%s) without echoing it', (password, reason) => {
    try {
      checkPassword(password, account);
      expect.unreachable();
    } catch (err) {
      const error = err as { code: string; message: string; hint: string };
      expect(error.code).toBe('weak_password');
      expect(error.message).toContain(reason);
      expect(`${error.message} ${error.hint}`).not.toContain(password);
    }
  });
});
