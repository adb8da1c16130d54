/**
 * The tail a role change's question carries since issue #50: each powerful capability the new
 * role grants, in plain words, most dangerous first, then how many more and which. Spelled out
 * here (not built with src's powerWords) so a test reads what the person is asked.
 */

/** From a role without power (subscriber, author, contributor) to WordPress's administrator. */
export const ADMINISTRATOR_POWER =
  'it grants power: change every site setting (manage_options); give accounts roles (promote_users); ' +
  'edit other accounts (emails, passwords) (edit_users); create accounts (create_users); delete accounts (delete_users); ' +
  'remove accounts from the site (remove_users); and 19 more (list_users, install_plugins, edit_plugins, activate_plugins, ' +
  'update_plugins, delete_plugins, install_themes, edit_themes, update_themes, delete_themes, edit_files, update_core, ' +
  'unfiltered_html, unfiltered_upload, edit_theme_options, switch_themes, export, import, level_3 to level_10)';

/**
 * From author or contributor to WordPress's editor (a single site: editors hold unfiltered_html, and
 * the user levels 3 to 7 old plugins check, #58).
 */
export const EDITOR_POWER = 'it grants power: publish scripts and any HTML (unfiltered_html); pass old plugins’ editor checks (user level 7) (level_3 to level_7)';

/** `text` as a regular expression that matches it literally. */
export const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
