import { testMuPlugin } from '../helpers/mu-plugin.js';
import { wpPhp } from '../wordpress/users/helpers.js';

/**
 * Objects REST does not show by default (issue #34 finding 2), for hidden-posts.test.ts and the undo property test: a
 * registered custom status (`archived`, left out of `status=any`) and a post type with
 * `show_in_rest: false` (`ledger`), both with categories and tags. A test-only mu-plugin of its
 * own (`cms-test-hidden-objects.php`) registers them; objects are made and read by PHP, as a
 * plugin would, since REST cannot list them all.
 */
const muPlugin = testMuPlugin('cms-test-hidden-objects.php');

const plugin = (hiddenType: boolean) => `<?php
// Test-only (test/reliability/hidden-posts-fixture.ts): a custom status${hiddenType ? ' and a post type REST does not show' : ''}.
add_action('init', static function (): void {
    register_post_status('archived', ['label' => 'Archived', 'public' => false, 'exclude_from_search' => true, 'show_in_admin_all_list' => true]);
${hiddenType ? "    register_post_type('ledger', ['label' => 'Ledger', 'public' => false, 'show_ui' => true, 'show_in_rest' => false, 'taxonomies' => ['category', 'post_tag']]);\n" : ''}});
`;

/**
 * Registers the status, and with `hiddenType` the type hidden from REST. Without the companion
 * plugin a registered hidden type alone makes merges and deletes of its taxonomies refuse
 * (objects_not_visible), so the core path runs with the status only.
 */
export async function installHiddenObjects(hiddenType = true): Promise<void> {
  await muPlugin.install(plugin(hiddenType));
}

export async function removeHiddenObjects(): Promise<void> {
  await muPlugin.remove();
}

export interface HiddenSpec {
  type: 'post' | 'ledger';
  status: string;
  categories: number[];
  tags: number[];
}

/** Makes the objects with wp_insert_post and wp_set_object_terms; their ids. */
export async function makeHiddenObjects(specs: HiddenSpec[]): Promise<number[]> {
  const rows = JSON.stringify(specs.map((s) => [s.type, s.status, s.categories, s.tags]));
  return JSON.parse(
    await wpPhp(`$ids = []; foreach (json_decode('${rows}', true) as [$type, $status, $categories, $tags]) {
      $id = wp_insert_post(['post_title' => 'hidden ' . $type, 'post_type' => $type, 'post_status' => $status, 'post_author' => 1], true);
      wp_set_object_terms($id, $categories, 'category'); wp_set_object_terms($id, $tags, 'post_tag'); $ids[] = $id; }
      echo json_encode($ids);`),
  ) as number[];
}

/**
 * Each object's type, status and the slugs of its categories and tags, read by PHP in a fresh
 * process (slugs: a term an undo recreated has a new id, its slug is the same).
 */
export async function hiddenObjectsState(ids: number[]): Promise<Record<string, string>> {
  if (!ids.length) return {};
  return JSON.parse(
    await wpPhp(`$out = []; foreach ([${ids.join(',')}] as $id) { $p = get_post($id);
      $slugs = fn ($tax) => implode(',', (function ($s) { sort($s); return $s; })(wp_get_object_terms($id, $tax, ['fields' => 'slugs'])));
      $out[$id] = $p ? "{$p->post_type}/{$p->post_status} categories: " . $slugs('category') . ' tags: ' . $slugs('post_tag') : 'gone'; }
      echo json_encode($out);`),
  ) as Record<string, string>;
}
