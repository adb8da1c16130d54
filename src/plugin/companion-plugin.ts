import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Zippable, zipSync } from 'fflate';

/** The companion plugin's folder name, which is also its slug and the zip's top folder. */
export const PLUGIN_SLUG = 'cms-admin-companion';
const ENTRY = `${PLUGIN_SLUG}.php`;
const LOADER = `${PLUGIN_SLUG}-loader.php`;

/** `<package>/plugin/cms-admin-companion`, found from this module (src/ under tsx, dist/ when built). */
export function pluginSourceDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'plugin', PLUGIN_SLUG);
    if (existsSync(join(candidate, ENTRY))) return candidate;
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error(`Cannot find plugin/${PLUGIN_SLUG}/${ENTRY} above ${fileURLToPath(import.meta.url)}.`);
    dir = parent;
  }
}

/** Plugin files relative to its folder, `/`-separated and sorted; dotfiles are left out. */
export async function pluginFiles(source = pluginSourceDir(), prefix = ''): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(join(source, prefix), { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) files.push(...(await pluginFiles(source, path)));
    else if (entry.isFile()) files.push(path);
  }
  return files.sort();
}

export interface InstallResult {
  /** Where the plugin's folder now is. */
  pluginDir: string;
  /** The mu-plugin loader, for `mu` installs (mu-plugins/ does not load subfolders by itself). */
  loader?: string;
}

/**
 * Copies the plugin into `<wp-content>/plugins/cms-admin-companion/` (activate it in
 * Plugins afterwards), or with `mu` into `<wp-content>/mu-plugins/` plus a one-line loader:
 * must-use plugins are always active, but WordPress loads only PHP files directly in
 * mu-plugins/. https://developer.wordpress.org/advanced-administration/plugins/mu-plugins/
 * An existing copy is replaced, so files removed from the plugin do not linger.
 */
export async function installPlugin(options: { wpContent: string; mu?: boolean }): Promise<InstallResult> {
  const wpContent = resolve(options.wpContent);
  const info = await stat(wpContent).catch(() => undefined);
  if (!info?.isDirectory()) throw new Error(`${wpContent} is not a directory; pass the site's wp-content directory.`);
  if (!existsSync(join(wpContent, 'plugins')) && !existsSync(join(wpContent, 'themes'))) {
    throw new Error(`${wpContent} does not look like a wp-content directory (no plugins/ or themes/ in it).`);
  }
  const parent = join(wpContent, options.mu ? 'mu-plugins' : 'plugins');
  const pluginDir = join(parent, PLUGIN_SLUG);
  await mkdir(parent, { recursive: true });
  await rm(pluginDir, { recursive: true, force: true });
  const source = pluginSourceDir();
  for (const file of await pluginFiles(source)) {
    await mkdir(dirname(join(pluginDir, file)), { recursive: true });
    await cp(join(source, file), join(pluginDir, file));
  }
  if (!options.mu) return { pluginDir };
  const loader = join(parent, LOADER);
  await writeFile(loader, muLoader());
  return { pluginDir, loader };
}

function muLoader(): string {
  return `<?php
/**
 * Plugin Name: CMS Admin Companion (loader)
 * Description: Loads mu-plugins/${PLUGIN_SLUG}/${ENTRY}; written by \`cms-admin plugin install --mu\`.
 */
if (file_exists(__DIR__ . '/${PLUGIN_SLUG}/${ENTRY}')) {
    require_once __DIR__ . '/${PLUGIN_SLUG}/${ENTRY}';
}
`;
}

/** A zip that Plugins → Add New → Upload Plugin accepts: every file under `cms-admin-companion/`. */
export async function buildPluginZip(source = pluginSourceDir()): Promise<Uint8Array> {
  const tree: Zippable = {};
  for (const file of await pluginFiles(source)) {
    tree[`${PLUGIN_SLUG}/${file}`] = [new Uint8Array(await readFile(join(source, file))), { level: 9 }];
  }
  return zipSync(tree);
}
