import { beforeAll, describe, expect, it } from 'vitest';
import { callNetwork, recordingApprover, type TestNetwork, testNetwork } from '../../helpers/network.js';

/**
 * Issue #47, finding 3: a network delete handed over the account's posts only on the sites it
 * still belonged to that were not archived (WordPress's get_blogs_of_user()). Posts it wrote on
 * a site it was removed from (wp-admin's Remove keeps them with it) or on an archived site kept
 * the deleted id, and neither the question nor the answer said so. Now every site of the network
 * is searched; the question lists them per site, the heir gets them, the answer says so per site.
 */
let net: TestNetwork;
beforeAll(async () => {
  net = await testNetwork();
});

/** Per site slug ('main' for the main site): how many posts (any type and status) each author has. */
async function authorsEverywhere(): Promise<Record<string, Record<string, number>>> {
  return JSON.parse(
    await net.php(`global $wpdb; $out = [];
      foreach (get_sites(['number' => 0]) as $site) {
        switch_to_blog($site->blog_id);
        $rows = $wpdb->get_results("SELECT post_author, COUNT(*) AS n FROM {$wpdb->posts} WHERE post_type <> 'revision' GROUP BY post_author");
        $slug = trim($site->path, '/') ?: 'main';
        foreach ($rows as $row) { $out[$slug][(string) $row->post_author] = (int) $row->n; }
        restore_current_blog();
      }
      echo json_encode($out);`),
  );
}

describe('delete-user on a network: every site, archived ones and ones the account left', () => {
  it('the question lists the posts on each site, the heir gets them all, the answer says so per site', async () => {
    const [bob, carla] = [net.users.bob as number, net.users.carla as number];
    // bob wrote on arts in every status and type, then was removed from it (posts kept); carla
    // belongs to arts. news, where bob is an author with posts, is archived.
    await net.php(`
      $id = fn ($slug) => (int) get_sites(['path' => '/' . $slug . '/', 'number' => 1])[0]->blog_id;
      add_user_to_blog($id('arts'), ${bob}, 'author');
      switch_to_blog($id('arts'));
      foreach ([['post', 'publish'], ['post', 'draft'], ['post', 'private'], ['page', 'pending'], ['ledger47', 'publish']] as [$type, $status]) {
        wp_insert_post(['post_title' => "Bob on Arts $type $status", 'post_type' => $type, 'post_status' => $status, 'post_author' => ${bob}], true);
      }
      restore_current_blog();
      remove_user_from_blog(${bob}, $id('arts'));
      add_user_to_blog($id('arts'), ${carla}, 'author');
      switch_to_blog($id('news'));
      wp_insert_post(['post_title' => 'Bob on News page', 'post_type' => 'page', 'post_status' => 'draft', 'post_author' => ${bob}], true);
      restore_current_blog();
      update_blog_status($id('news'), 'archived', 1);`);
    const before = await authorsEverywhere();
    expect([before.sports?.[bob], before.news?.[bob], before.arts?.[bob]]).toEqual([2, 3, 5]);

    const approver = recordingApprover();
    const done = await callNetwork(net.context(), 'delete-user', { id: bob, reassign_to: carla }, approver);
    expect(approver.asked[0]?.summary).toBe(
      `delete bob's account from the whole network; main: leaves (subscriber); sports: leaves (editor), 2 post(s) to carla (user ${carla}); news (archived): leaves (author), 3 post(s) to carla (user ${carla}); arts: no longer a member, 5 post(s) to carla (user ${carla}); this cannot be undone`,
    );
    expect(done).toMatchObject({ ok: true, result: { id: bob, deleted: true } });
    const sites = (done as { result: { sites: Array<Record<string, unknown>> } }).result.sites;
    const bySlug = Object.fromEntries(sites.map((s) => [(s.site as { slug: string }).slug || 'main', s]));
    expect(bySlug).toMatchObject({
      main: { posts_reassigned: 0, member: true },
      sports: { posts_reassigned: 2, reassigned_to: carla, member: true, inactive: null },
      news: { posts_reassigned: 3, reassigned_to: carla, member: true, inactive: 'archived' },
      arts: { posts_reassigned: 5, reassigned_to: carla, member: false, inactive: null },
    });

    // Read back on every site: nothing is left with the deleted id; carla has each site's posts.
    const after = await authorsEverywhere();
    for (const slug of Object.keys(after)) expect(after[slug]?.[bob], `posts of the deleted id on ${slug}`).toBeUndefined();
    for (const slug of ['sports', 'news', 'arts'])
      expect(after[slug]?.[carla], `carla's posts on ${slug}`).toBe((before[slug]?.[carla] ?? 0) + (before[slug]?.[bob] ?? 0));
  });

  it("refuses when the heir does not belong to a site the account left that still holds its posts; nothing changes", async () => {
    const fresh = await testNetwork(); // the network as installed again
    const [bob, carla] = [fresh.users.bob as number, fresh.users.carla as number];
    await fresh.php(`
      $arts = (int) get_sites(['path' => '/arts/', 'number' => 1])[0]->blog_id;
      add_user_to_blog($arts, ${bob}, 'author');
      switch_to_blog($arts);
      wp_insert_post(['post_title' => 'Bob on Arts', 'post_status' => 'publish', 'post_author' => ${bob}], true);
      restore_current_blog();
      remove_user_from_blog(${bob}, $arts);`);
    const before = await authorsEverywhere();
    const out = await callNetwork(fresh.context(), 'delete-user', { id: bob, reassign_to: carla }, recordingApprover());
    // The plugin refuses the whole call, naming the site (as for a site bob still belongs to).
    expect(out.ok).toBe(false);
    expect(JSON.stringify(out)).toContain('arts (1)');
    expect(await authorsEverywhere()).toEqual(before);
  });
});
