/**
 * WordPress 6.1's five default roles and their capabilities, as populate_roles() creates them
 * (wp-admin/includes/schema.php). Only a fallback when the companion plugin is missing: a real
 * site may have changed them or added its own.
 * https://wordpress.org/documentation/article/roles-and-capabilities/
 */
export interface RoleRecord {
  role: string;
  name: string;
  capabilities: string[];
  /**
   * Capabilities of this role the signed-in account may not give, as WordPress itself decides
   * (companion 0.3.2: meta capabilities mapped, those no one may have left out). Internal: not
   * in list-user-roles' answer.
   */
  beyond_caller?: string[];
  /** How many accounts have it (companion 0.6.0). */
  users_count?: number;
  /**
   * Its slug is a capability name (companion 0.7.0): a role made before the slug rule, whose holders
   * hold that capability (capability-maps.ts). Internal.
   */
  slug_is_capability?: boolean;
}

export const WORDPRESS_DEFAULT_ROLES: readonly RoleRecord[] = [
  {
    role: 'administrator',
    name: 'Administrator',
    capabilities: [
      'activate_plugins',
      'create_users',
      'delete_others_pages',
      'delete_others_posts',
      'delete_pages',
      'delete_plugins',
      'delete_posts',
      'delete_private_pages',
      'delete_private_posts',
      'delete_published_pages',
      'delete_published_posts',
      'delete_themes',
      'delete_users',
      'edit_dashboard',
      'edit_files',
      'edit_others_pages',
      'edit_others_posts',
      'edit_pages',
      'edit_plugins',
      'edit_posts',
      'edit_private_pages',
      'edit_private_posts',
      'edit_published_pages',
      'edit_published_posts',
      'edit_theme_options',
      'edit_themes',
      'edit_users',
      'export',
      'import',
      'install_plugins',
      'install_themes',
      'level_0',
      'level_1',
      'level_10',
      'level_2',
      'level_3',
      'level_4',
      'level_5',
      'level_6',
      'level_7',
      'level_8',
      'level_9',
      'list_users',
      'manage_categories',
      'manage_links',
      'manage_options',
      'moderate_comments',
      'promote_users',
      'publish_pages',
      'publish_posts',
      'read',
      'read_private_pages',
      'read_private_posts',
      'remove_users',
      'switch_themes',
      'unfiltered_html',
      'unfiltered_upload',
      'update_core',
      'update_plugins',
      'update_themes',
      'upload_files',
    ],
  },
  {
    role: 'editor',
    name: 'Editor',
    capabilities: [
      'delete_others_pages',
      'delete_others_posts',
      'delete_pages',
      'delete_posts',
      'delete_private_pages',
      'delete_private_posts',
      'delete_published_pages',
      'delete_published_posts',
      'edit_others_pages',
      'edit_others_posts',
      'edit_pages',
      'edit_posts',
      'edit_private_pages',
      'edit_private_posts',
      'edit_published_pages',
      'edit_published_posts',
      'level_0',
      'level_1',
      'level_2',
      'level_3',
      'level_4',
      'level_5',
      'level_6',
      'level_7',
      'manage_categories',
      'manage_links',
      'moderate_comments',
      'publish_pages',
      'publish_posts',
      'read',
      'read_private_pages',
      'read_private_posts',
      'unfiltered_html',
      'upload_files',
    ],
  },
  {
    role: 'author',
    name: 'Author',
    capabilities: [
      'delete_posts',
      'delete_published_posts',
      'edit_posts',
      'edit_published_posts',
      'level_0',
      'level_1',
      'level_2',
      'publish_posts',
      'read',
      'upload_files',
    ],
  },
  {
    role: 'contributor',
    name: 'Contributor',
    capabilities: ['delete_posts', 'edit_posts', 'level_0', 'level_1', 'read'],
  },
  {
    role: 'subscriber',
    name: 'Subscriber',
    capabilities: ['level_0', 'read'],
  },
];
