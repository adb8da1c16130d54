import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { buildPluginZip, installPlugin, pluginFiles } from '../../../src/plugin/companion-plugin.js';
import { wpPhp } from './helpers.js';

const work = await mkdtemp(join(tmpdir(), 'cms-plugin-'));
afterAll(() => rm(work, { recursive: true, force: true }));

describe('companion plugin packaging', () => {
  it('builds a zip that WordPress’s plugin uploader accepts', async () => {
    const zip = join(work, 'cms-admin-companion.zip');
    await writeFile(zip, await buildPluginZip());

    // What Plugins → Add New → Upload does: unzip under wp-content/upgrade, then check_package().
    const out = await wpPhp(`
      require_once ABSPATH . 'wp-admin/includes/file.php';
      require_once ABSPATH . 'wp-admin/includes/plugin.php';
      require_once ABSPATH . 'wp-admin/includes/class-wp-upgrader.php';
      WP_Filesystem();
      $dest = WP_CONTENT_DIR . '/upgrade/cms-zip-test-' . uniqid() . '/';
      $unzipped = unzip_file(${JSON.stringify(zip)}, $dest);
      $upgrader = new Plugin_Upgrader(new Automatic_Upgrader_Skin());
      $upgrader->init();
      $upgrader->install_strings();
      $checked = $upgrader->check_package($dest . 'cms-admin-companion/');
      echo json_encode([
        'unzip' => is_wp_error($unzipped) ? $unzipped->get_error_message() : 'ok',
        'check' => is_wp_error($checked) ? $checked->get_error_code() : 'ok',
        'name' => $upgrader->new_plugin_data['Name'] ?? null,
        'top' => array_values(array_diff(scandir($dest), ['.', '..'])),
      ]);
      $wp_filesystem->delete($dest, true);
    `);
    expect(JSON.parse(out)).toEqual({
      unzip: 'ok',
      check: 'ok',
      name: 'CMS Admin Companion',
      top: ['cms-admin-companion'],
    });
  });

  it('installs into plugins/ or, with mu, into mu-plugins/ with a loader WordPress can run', async () => {
    const wpContent = join(work, 'wp-content');
    await mkdir(join(wpContent, 'plugins'), { recursive: true });
    const files = await pluginFiles();
    expect(files).toContain('cms-admin-companion.php');

    const plain = await installPlugin({ wpContent });
    expect(plain.loader).toBeUndefined();
    const installed = await readdir(plain.pluginDir, { recursive: true });
    expect(installed.filter((f) => f.endsWith('.php')).sort()).toEqual(files.filter((f) => f.endsWith('.php')).sort());

    const mu = await installPlugin({ wpContent, mu: true });
    expect(mu.loader).toBe(join(wpContent, 'mu-plugins', 'cms-admin-companion-loader.php'));
    await promisify(execFile)('php', ['-l', mu.loader as string]);
    // Loaded inside WordPress (where the plugin is already active): the loader requires its copy, which steps aside.
    const out = await wpPhp(
      `require ${JSON.stringify(mu.loader)}; echo json_encode(in_array(${JSON.stringify(join(mu.pluginDir, 'cms-admin-companion.php'))}, get_included_files(), true));`,
    );
    expect(JSON.parse(out)).toBe(true);
  });

  it('refuses a directory that is not wp-content', async () => {
    await expect(installPlugin({ wpContent: join(work, 'nowhere') })).rejects.toThrow(/not a directory/);
    await mkdir(join(work, 'empty'), { recursive: true });
    await expect(installPlugin({ wpContent: join(work, 'empty') })).rejects.toThrow(/does not look like a wp-content/);
  });
});
