import { wpPhp } from '../wordpress/users/helpers.js';

/** What a call of the surface property may change, named so the site can be read back in one PHP run. */
export interface Watched {
  users?: number[];
  /** Accounts that may come to exist (create-user, import-users). */
  logins?: string[];
  terms?: number[];
  /** Terms that may come to exist: taxonomy and name. */
  termNames?: Array<[taxonomy: string, name: string]>;
  roles?: string[];
  posts?: number[];
  /** Products that may come to exist by this title (a site ability's run, #62). */
  productTitles?: string[];
}

/**
 * The watched part of the site, read straight from WordPress (PHP in the sandbox, not through the
 * toolkit): accounts (roles, own capabilities, email, name, password hash, disabled, sessions,
 * application passwords; on a network super admin and the role per site), terms (name, slug, parent, description, objects), roles, posts' terms.
 */
export async function siteState(w: Watched, php: (code: string) => Promise<string> = wpPhp): Promise<unknown> {
  const list = (values: readonly (string | number)[] = []) => JSON.stringify(values);
  const out = await php(`
    $w = ['users' => json_decode('${list(w.users)}'), 'logins' => json_decode('${list(w.logins)}'), 'terms' => json_decode('${list(w.terms)}'),
          'names' => json_decode('${list((w.termNames ?? []).map(([t, n]) => `${t}\u0000${n}`))}'), 'roles' => json_decode('${list(w.roles)}'), 'posts' => json_decode('${list(w.posts)}'), 'products' => json_decode('${list(w.productTitles)}')];
    $user = function ($u) {
      if (!$u) return null;
      $id = $u->ID;
      return ['login' => $u->user_login, 'roles' => array_values($u->roles), 'caps' => $u->caps, 'email' => $u->user_email, 'name' => $u->display_name,
        'pass' => $u->user_pass, 'disabled' => get_user_meta($id, 'cms_disabled', true), 'sessions' => count(WP_Session_Tokens::get_instance($id)->get_all()),
        'apps' => count(WP_Application_Passwords::get_user_application_passwords($id)),
        // On a network: super admin, and the role on each site.
        'network' => is_multisite() ? [is_super_admin($id), array_map(fn ($b) => [$b->userblog_id, (new WP_User($id, '', $b->userblog_id))->roles], array_values(get_blogs_of_user($id)))] : null];
    };
    $term = function ($t) {
      if (!$t || is_wp_error($t)) return null;
      return ['name' => $t->name, 'slug' => $t->slug, 'parent' => $t->parent, 'description' => $t->description, 'taxonomy' => $t->taxonomy,
        'objects' => array_map('intval', (array) get_objects_in_term($t->term_id, $t->taxonomy))];
    };
    $out = [];
    foreach ($w['users'] as $id) $out['user'][$id] = $user(get_userdata($id));
    foreach ($w['logins'] as $login) $out['login'][$login] = $user(get_user_by('login', $login));
    foreach ($w['terms'] as $id) $out['term'][$id] = $term(get_term($id));
    foreach ($w['names'] as $pair) { [$tax, $name] = explode("\\0", $pair); $found = get_term_by('name', $name, $tax); $out['named'][$pair] = $term($found ?: null); }
    foreach ($w['roles'] as $slug) { $r = get_role($slug); $out['role'][$slug] = $r ? $r->capabilities : null; }
    foreach ($w['posts'] as $id) $out['post'][$id] = ['tags' => wp_get_post_tags($id, ['fields' => 'ids']), 'categories' => wp_get_post_categories($id), 'author' => (int) get_post_field('post_author', $id)];
    foreach ($w['products'] as $title) $out['product'][$title] = array_map(fn ($p) => [$p->ID, $p->post_status], get_posts(['post_type' => 'product', 'post_status' => 'any', 'numberposts' => -1, 'title' => $title]));
    echo json_encode($out);
  `);
  return JSON.parse(out);
}
