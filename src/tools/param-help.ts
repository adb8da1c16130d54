/**
 * What the params sent without a description (schema.ts, SELF_DESCRIBING_PARAMS: their name says
 * it to a model, and every description is sent with every request) mean, for people: `help TOOL`
 * shows these in its "about" column (#60.6: `help create-role` left it empty). Never sent to a model.
 */
export const PARAM_HELP: Readonly<Record<string, string>> = {
  id: 'The id of what the tool acts on',
  dry_run: 'true: say what it would change, write nothing',
  user_id: 'The user’s id',
  post_ids: 'Post ids, e.g. [12,13] or 12,13',
  term_ids: 'Term ids of the taxonomy',
  category_ids: 'Category ids',
  tag_ids: 'Tag ids',
  source_ids: 'Terms merged into the target',
  target_id: 'The term they are merged into',
  taxonomy: 'A taxonomy slug as list-taxonomies shows it, e.g. post_tag',
  name: 'The name people see',
  email: 'An email address',
  role: 'A role slug as list-user-roles shows it, e.g. editor',
  slug: 'The short name in URLs and code, e.g. field-notes or shop_manager',
  description: 'Free text',
  bio: 'The profile’s biographical info',
  reason: 'Why (kept with the change)',
  search: 'Text to look for',
  hide_empty: 'true: leave out what no post uses',
  before: 'ISO 8601 date or time, e.g. 2025-01-31',
  limit: 'Items on this page (default: what fits the answer budget)',
  cursor: 'next_cursor of the previous page',
  add_capabilities: 'Capabilities to grant, e.g. [edit_posts]',
  remove_capabilities: 'Capabilities to take away',
  deny_capabilities: 'Capabilities the role explicitly denies (false), e.g. [edit_posts]',
  capability: 'A capability name, e.g. install_plugins',
  capabilities: 'Capabilities granted, e.g. [read,edit_posts]',
  clone_from: 'A role to copy (its capabilities, then add/remove)',
  add_roles: 'Roles added beside the current ones',
  remove_roles: 'Roles taken away',
};
