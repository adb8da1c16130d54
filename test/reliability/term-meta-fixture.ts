import { testMuPlugin } from '../helpers/mu-plugin.js';

/**
 * Registered term meta for the undo tests (issue #34.3): a test-only mu-plugin of its own
 * (`cms-test-term-meta.php`, beside the sandbox's and other tests' fixtures) registers `color`
 * (a string) and `rank` (an integer) on every taxonomy the undo tests use, shown in REST, so a
 * term's `meta` reads `{color, rank}`. Written before the tests, removed after them.
 */
const muPlugin = testMuPlugin('cms-test-term-meta.php');

const PLUGIN = `<?php
// Test-only (test/reliability/term-meta-fixture.ts): registered term meta shown in REST.
add_action('init', static function () {
    foreach (['category', 'post_tag', 'genre', 'product_cat'] as $taxonomy) {
        register_term_meta($taxonomy, 'color', ['type' => 'string', 'single' => true, 'default' => '', 'show_in_rest' => true]);
        register_term_meta($taxonomy, 'rank', ['type' => 'integer', 'single' => true, 'default' => 0, 'show_in_rest' => true]);
    }
}, 20);
`;

export async function installTermMeta(): Promise<void> {
  await muPlugin.install(PLUGIN);
}

export async function removeTermMeta(): Promise<void> {
  await muPlugin.remove();
}
