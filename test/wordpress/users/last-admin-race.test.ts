import { randomBytes } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { resolveInstance } from '../../../src/sandbox/index.js';
import { waitFor } from '../../../src/sandbox/processes.js';
import { testSite } from '../../helpers/site.js';
import { makeAppPassword, makeUser, wpPhp } from './helpers.js';

/**
 * Security review, issue #26, finding 5: two administrators disabling each other at the same
 * moment both got 200 and no enabled administrator was left. The race is made certain, not
 * likely: a test-only mu-plugin holds each disable of this test between the last-administrator
 * check and its write (the `update_user_metadata` filter of the write) until the other request
 * has reached the same point, or is waiting on a database lock. Without a lock both get there
 * and both write; with the plugin's lock one waits, then sees the other's write and is refused.
 * No sleeps: each step waits for a condition (a marker file, the processlist).
 */
const muPlugin = () =>
  join(resolveInstance({ home: process.env.CMS_SANDBOX_HOME, name: process.env.CMS_TEST_SANDBOX }).wpDir, 'wp-content', 'mu-plugins', 'cms-test-race.php');

const HOLD = `<?php
// Test-only (last-admin-race.test.ts): holds a marked disable until its rival is there too.
add_filter('update_user_metadata', static function ($check, $object_id, $meta_key) {
    $token = $_SERVER['HTTP_X_CMS_RACE'] ?? '';
    if ('_cms_admin_disabled' !== $meta_key || !preg_match('/^[a-f0-9]{16}$/', $token)) {
        return $check;
    }
    global $wpdb;
    $dir = sys_get_temp_dir() . '/cms-race-' . $token;
    @mkdir($dir);
    touch($dir . '/' . (int) $object_id);
    for ($deadline = microtime(true) + 20; microtime(true) < $deadline; usleep(2000)) {
        $waiting = (int) $wpdb->get_var("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE STATE = 'User lock'");
        if (count(glob($dir . '/*')) >= 2 || $waiting > 0) {
            break;
        }
    }
    return $check;
}, 10, 3);
`;

let others: number[] = [];
let tmp = '';
beforeAll(async () => {
  await writeFile(muPlugin(), HOLD);
  tmp = (await wpPhp('echo sys_get_temp_dir();')).trim();
});
afterAll(async () => {
  await rm(muPlugin(), { force: true });
  // Whatever happened, the site's administrators come back.
  await wpPhp(`foreach ([${others.join(',') || 0}] as $id) { delete_user_meta($id, '_cms_admin_disabled'); }`);
});

/**
 * One disable on a connection of its own: a pooled keep-alive connection may belong to the PHP
 * worker busy with the rival request, and would queue this one behind it.
 */
function disable(by: { username: string; appPassword: string }, id: number, token: string) {
  const body = JSON.stringify({ reason: 'race' });
  return new Promise<{ status: number; code?: string }>((resolve, reject) => {
    const request = http.request(
      `${testSite().url}/wp-json/cms-admin/v1/users/${id}/disable`,
      {
        method: 'POST',
        agent: false,
        headers: {
          authorization: `Basic ${Buffer.from(`${by.username}:${by.appPassword}`).toString('base64')}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'x-cms-race': token,
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, code: (JSON.parse(text) as { code?: string }).code }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

it('two administrators disabling each other at once: one is refused, one administrator stays enabled', async () => {
  const enabledAdmins = async (): Promise<number[]> => JSON.parse(await wpPhp('echo json_encode(cms_admin_enabled_administrators());'));
  others = await enabledAdmins();
  for (let round = 0; round < 3; round++) {
    const [a, b] = [await makeUser({ roles: ['administrator'] }), await makeUser({ roles: ['administrator'] })];
    const [keyA, keyB] = [await makeAppPassword(a.id), await makeAppPassword(b.id)];
    // Only the two rivals are left enabled: each is the other's last fellow administrator.
    const rest = (await enabledAdmins()).filter((id) => id !== a.id && id !== b.id);
    await wpPhp(
      `foreach ([${rest.join(',')}] as $id) { update_user_meta($id, '_cms_admin_disabled', ['reason' => 'race test', 'disabled_at' => gmdate('c'), 'disabled_by' => 0]); }`,
    );
    try {
      const token = randomBytes(8).toString('hex');
      const first = disable({ username: a.username, appPassword: keyA }, b.id, token);
      // The second is sent once the first is held (its PHP worker busy), so another worker takes
      // it: PHP's built-in server would otherwise queue both on whichever worker accepted them.
      const held = join(tmp, `cms-race-${token}`, String(b.id));
      expect(await waitFor(() => existsSync(held), 20_000, 5)).toBe(true);
      const second = disable({ username: b.username, appPassword: keyB }, a.id, token);
      const answers = await Promise.all([first, second]);
      await rm(join(tmp, `cms-race-${token}`), { recursive: true, force: true });
      const left = (await enabledAdmins()).filter((id) => id === a.id || id === b.id);
      expect(left, JSON.stringify(answers)).toHaveLength(1);
      expect(answers.map((x) => x.status).sort(), JSON.stringify(answers)).toEqual([200, 409]);
      expect(answers.find((x) => x.status === 409)?.code).toBe('cms_admin_last_administrator');
    } finally {
      await wpPhp(`foreach ([${rest.join(',')}] as $id) { delete_user_meta($id, '_cms_admin_disabled'); }`);
    }
  }
});
