import { unique } from '../../helpers/site.js';
import { wpPhp } from '../users/helpers.js';

/**
 * A taxonomy mess for the clean-up tools (#51), seeded in one PHP run (wp_insert_term and
 * wp_insert_post, the way importers leave sites): `used` tags on published posts, `unused`
 * tags on nothing, `draft` tags only on drafts (WordPress's `count` reads 0 for them, but
 * they are in use), near-duplicate tags in several spellings, each group's most used first.
 * Every name starts with `prefix`, so a tool's `search` keeps to this file's terms.
 */
export interface Mess {
  prefix: string;
  used: number[];
  unused: number[];
  draft: number[];
  /** Near-duplicate groups: ids, the most used first. */
  duplicates: number[][];
  posts: number[];
}

export async function seedMess(sizes: { used: number; unused: number; draft: number }): Promise<Mess> {
  const prefix = unique('Mess').replace(/\s+/g, '-');
  const php = `
    $p = ${JSON.stringify(prefix)};
    $tag = fn ($name, $slug) => wp_insert_term($name, 'post_tag', ['slug' => $slug])['term_id'];
    $out = ['used' => [], 'unused' => [], 'draft' => [], 'duplicates' => [], 'posts' => []];
    $mk = function (string $status, array $tags) use (&$out, $p) {
        $id = wp_insert_post(['post_title' => "$p post", 'post_status' => $status, 'tags_input' => []]);
        wp_set_object_terms($id, array_map('intval', $tags), 'post_tag');
        $out['posts'][] = $id;
    };
    for ($i = 0; $i < ${sizes.used}; $i++) $out['used'][] = $tag("$p used $i", strtolower("$p-used-$i"));
    for ($i = 0; $i < ${sizes.unused}; $i++) $out['unused'][] = $tag("$p unused $i", strtolower("$p-unused-$i"));
    for ($i = 0; $i < ${sizes.draft}; $i++) $out['draft'][] = $tag("$p draft $i", strtolower("$p-draft-$i"));
    foreach (array_chunk($out['used'], 10) as $tags) $mk('publish', $tags);
    foreach (array_chunk($out['draft'], 10) as $tags) $mk('draft', $tags);
    // Near-duplicates, most used first: 3 posts, 2, 1, none.
    foreach ([['JavaScript', 'javascript', 'Java Script', 'JavaScripts'], ['Café', 'cafe']] as $g => $names) {
        $ids = [];
        foreach ($names as $n => $name) $ids[] = $tag("$p $name", strtolower("$p-dup-$g-$n"));
        foreach ($ids as $n => $id) for ($k = 0; $k < count($ids) - 1 - $n; $k++) $mk('publish', [$id]);
        $out['duplicates'][] = $ids;
    }
    echo json_encode($out);
  `;
  return { prefix, ...(JSON.parse(await wpPhp(php)) as Omit<Mess, 'prefix'>) };
}

/** Rows straight from the database: terms (by slug) with their description, parent and meta, and which objects hold them. */
export async function dbSnapshot(prefix: string, taxonomy = 'post_tag') {
  const php = `
    global $wpdb;
    $like = $wpdb->esc_like(strtolower(${JSON.stringify(prefix)})) . '%';
    $rows = $wpdb->get_results($wpdb->prepare("SELECT t.term_id, t.name, t.slug, tt.description, tt.parent, tt.count
      FROM $wpdb->terms t JOIN $wpdb->term_taxonomy tt ON tt.term_id = t.term_id
      WHERE tt.taxonomy = %s AND t.slug LIKE %s ORDER BY t.slug", ${JSON.stringify(taxonomy)}, $like));
    $slugs = [];
    foreach ($rows as $r) $slugs[(int) $r->term_id] = $r->slug;
    $out = [];
    foreach ($rows as $r) {
        $objects = array_map('intval', get_objects_in_term((int) $r->term_id, ${JSON.stringify(taxonomy)}));
        sort($objects);
        $meta = array_map(fn ($v) => $v[0], get_term_meta((int) $r->term_id) ?: []);
        ksort($meta);
        $out[$r->slug] = ['name' => $r->name, 'description' => $r->description,
            'parent' => $r->parent ? ($slugs[(int) $r->parent] ?? (int) $r->parent) : 0,
            'count' => (int) $r->count, 'objects' => $objects, 'meta' => (object) $meta];
    }
    echo json_encode((object) $out);
  `;
  return JSON.parse(await wpPhp(php)) as Record<
    string,
    { name: string; description: string; parent: string | number; count: number; objects: number[]; meta: Record<string, string> }
  >;
}
