/**
 * Powerful capabilities in plain words, for the questions of the bulk account tools (#50):
 * a person approving "edit_users" may not know it hands over every other account.
 * https://wordpress.org/documentation/article/roles-and-capabilities/
 */
const WORDS: Record<string, string> = {
  manage_options: 'change the site’s settings',
  promote_users: 'change anyone’s role',
  edit_users: 'edit other accounts (emails, passwords)',
  create_users: 'create accounts',
  delete_users: 'delete accounts',
  remove_users: 'remove accounts from the site',
  list_users: 'see every account and email',
  install_plugins: 'install plugins (run code)',
  upload_plugins: 'upload plugins (run code)',
  edit_plugins: 'edit plugin code',
  activate_plugins: 'turn plugins on and off',
  delete_plugins: 'delete plugins',
  update_plugins: 'update plugins',
  install_themes: 'install themes (run code)',
  upload_themes: 'upload themes (run code)',
  edit_themes: 'edit theme code',
  switch_themes: 'change the theme',
  delete_themes: 'delete themes',
  update_themes: 'update themes',
  edit_theme_options: 'change menus, widgets and the customizer',
  edit_files: 'edit files on the server',
  update_core: 'update WordPress',
  unfiltered_html: 'publish unfiltered HTML and scripts',
  unfiltered_upload: 'upload any file type',
  import: 'import content',
  export: 'export all content',
  edit_others_posts: 'edit others’ posts',
  delete_others_posts: 'delete others’ posts',
  edit_others_pages: 'edit others’ pages',
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
  delete_others_pages: 'delete others’ pages',
};

/** "change the site’s settings (manage_options)"; a capability without words keeps its name. */
export function inWords(capability: string): string {
  const words = WORDS[capability];
  return words ? `${words} (${capability})` : capability;
}

/** The first `max` capabilities in words, then how many more. */
export function powersInWords(capabilities: readonly string[], max = 6): string {
  const shown = capabilities.slice(0, max).map(inWords).join('; ');
  return capabilities.length > max ? `${shown}; and ${capabilities.length - max} more` : shown;
}
