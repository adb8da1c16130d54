/**
 * Capabilities in plain words and in groups (issue #50): a question names each powerful one as a
 * person reads it, and list-user-roles groups them. Power is judged from capabilities, never
 * from role names. https://wordpress.org/documentation/article/roles-and-capabilities/
 */
export type CapabilityGroup = 'content' | 'taxonomy' | 'users' | 'site settings' | 'code-running';

const USERS = ['promote_users', 'edit_users', 'create_users', 'delete_users', 'remove_users', 'add_users', 'list_users'];
const SETTINGS = ['manage_options', 'edit_theme_options', 'switch_themes', 'customize', 'export', 'import'];
const CODE = [
  'install_plugins', 'upload_plugins', 'edit_plugins', 'activate_plugins', 'update_plugins', 'delete_plugins',
  'install_themes', 'upload_themes', 'edit_themes', 'update_themes', 'delete_themes', 'edit_files', 'update_core',
  'unfiltered_html', 'unfiltered_upload', 'install_languages', 'update_languages',
];

const WORDS: Record<string, string> = {
  manage_options: 'change every site setting',
  promote_users: 'give accounts roles',
  edit_users: 'edit other accounts (emails, passwords)',
  create_users: 'create accounts',
  delete_users: 'delete accounts',
  remove_users: 'remove accounts from the site',
  add_users: 'add accounts to the site',
  list_users: 'see every account and its email',
  install_plugins: 'install plugins (code run on the server)',
  upload_plugins: 'upload plugins (code run on the server)',
  edit_plugins: 'edit plugin code run on the server',
  activate_plugins: 'turn plugins on and off',
  update_plugins: 'update plugins',
  delete_plugins: 'delete plugins',
  install_themes: 'install themes (code run on the server)',
  upload_themes: 'upload themes (code run on the server)',
  edit_themes: 'edit theme code run on the server',
  update_themes: 'update themes',
  delete_themes: 'delete themes',
  switch_themes: 'change the theme',
  edit_theme_options: 'change menus, widgets and the customizer',
  edit_files: 'edit files on the server',
  update_core: 'update WordPress',
  unfiltered_html: 'publish scripts and any HTML',
  unfiltered_upload: 'upload any file type',
  import: 'import content',
  export: 'export all content',
  edit_others_posts: 'edit others’ posts',
  delete_others_posts: 'delete others’ posts',
  edit_others_pages: 'edit others’ pages',
  delete_others_pages: 'delete others’ pages',
  publish_pages: 'publish pages',
  edit_pages: 'edit pages',
  delete_pages: 'delete pages',
  manage_categories: 'manage categories and tags',
  moderate_comments: 'moderate comments',
  manage_links: 'manage links',
  read_private_posts: 'read private posts',
  read_private_pages: 'read private pages',
  edit_private_posts: 'edit private posts',
  edit_private_pages: 'edit private pages',
  edit_published_pages: 'edit published pages',
  delete_published_pages: 'delete published pages',
  delete_private_posts: 'delete private posts',
  delete_private_pages: 'delete private pages',
};

export function capabilityGroup(cap: string): CapabilityGroup {
  if (USERS.includes(cap)) return 'users';
  if (SETTINGS.includes(cap) || cap.startsWith('manage_network') || cap === 'manage_sites') return 'site settings';
  if (CODE.includes(cap)) return 'code-running';
  if (/categor|_terms$|^manage_.*_terms?$/.test(cap)) return 'taxonomy';
  return 'content';
}

/** Capabilities that manage accounts, settings or run code: any grant of one is asked about. */
export function isPowerful(cap: string): boolean {
  const group = capabilityGroup(cap);
  return group === 'users' || group === 'site settings' || group === 'code-running';
}

/** "change every site setting (manage_options)". */
export function inWords(cap: string): string {
  const words = WORDS[cap];
  return words ? `${words} (${cap})` : cap;
}

/** The powerful ones of `caps`, in words, most dangerous first: "…; …" (the first `max`, then how many more). */
export function powerWords(caps: readonly string[], max = 6): string {
  const order = [...SETTINGS.slice(0, 1), ...USERS, ...CODE, ...SETTINGS.slice(1)];
  const rank = (cap: string) => (order.includes(cap) ? order.indexOf(cap) : order.length);
  const powerful = [...new Set(caps)].filter(isPowerful).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  const more = powerful.length - max;
  return powerful.slice(0, max).map(inWords).join('; ') + (more > 0 ? `; and ${more} more (${powerful.slice(max).join(', ')})` : '');
}

/**
 * The capabilities as given (already judged: risk.ts' `powersOf`, everything outside the safe
 * list), in words: the first `max`, then how many more. The bulk account tools' questions.
 */
export function powersInWords(capabilities: readonly string[], max = 6): string {
  const shown = capabilities.slice(0, max).map(inWords).join('; ');
  return capabilities.length > max ? `${shown}; and ${capabilities.length - max} more` : shown;
}

/** Granted capabilities by group, for list-user-roles (role names and level_N left out). */
export function grouped(caps: readonly string[]): Partial<Record<CapabilityGroup, string[]>> {
  const out: Partial<Record<CapabilityGroup, string[]>> = {};
  for (const cap of [...caps].sort()) {
    if (/^level_\d+$/.test(cap)) continue;
    const group = capabilityGroup(cap);
    out[group] = [...(out[group] ?? []), cap];
  }
  return out;
}
