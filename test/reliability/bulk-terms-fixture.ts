import { unique } from '../helpers/site.js';
import { dbSnapshot } from '../wordpress/cleanup/mess.js';
import { wpPhp } from '../wordpress/users/helpers.js';

/**
 * Sites for the bulk term writes of issue #59, seeded in one PHP run, and read back from the
 * database (never through the tools): each post's terms by slug, every term of the prefix.
 */
export interface RaceSite {
  prefix: string;
  /** The category C and one no call touches, K. */
  c: number;
  k: number;
  /** Posts 1–3 hold C (3 only C, so losing it files it under the default category); post 4 holds K only. */
  posts: [number, number, number, number];
}

export async function seedRace(name = 'Race'): Promise<RaceSite> {
  const prefix = unique(name).replace(/\s+/g, '-');
  const out = await wpPhp(`
    $p = ${JSON.stringify(prefix)};
    $slug = strtolower($p);
    $c = wp_insert_term("$p C", 'category', ['slug' => "$slug-c"])['term_id'];
    $k = wp_insert_term("$p K", 'category', ['slug' => "$slug-k"])['term_id'];
    $posts = [];
    foreach ([[$c, $k], [$c, $k], [$c], [$k]] as $i => $cats) {
        $posts[] = wp_insert_post(['post_title' => "$p $i", 'post_status' => $i === 1 ? 'draft' : 'publish', 'post_category' => $cats]);
    }
    echo json_encode(compact('c', 'k', 'posts'));
  `);
  return { prefix, ...(JSON.parse(out) as Omit<RaceSite, 'prefix'>) };
}

/** Each post's categories and tags by slug, from the database. */
export async function relations(ids: readonly number[]): Promise<Record<string, { category: string[]; post_tag: string[] }>> {
  const list = ids.join(',');
  return JSON.parse(
    await wpPhp(`$out = [];
      foreach ([${list}] as $id) {
        clean_object_term_cache($id, get_post_type($id));
        foreach (['category', 'post_tag'] as $t) { $s = wp_get_object_terms($id, $t, ['fields' => 'slugs']); sort($s); $out[$id][$t] = $s; }
      }
      echo json_encode((object) $out);`),
  );
}

/** The prefix's terms (both taxonomies, by slug, with their objects) and the posts' terms: what a person would check. */
export async function siteState(site: { prefix: string; posts: readonly number[] }) {
  return {
    category: await dbSnapshot(site.prefix, 'category'),
    post_tag: await dbSnapshot(site.prefix, 'post_tag'),
    posts: await relations(site.posts),
  };
}
