import type { BatchItemResult, BatchRequest, WordPressClient } from '../../client/index.js';
import { answerLost, mapLimit, WordPressError } from '../../client/index.js';

/**
 * Many account writes: `/batch/v1`, 25 a request. WordPress 6.1 does not let the users
 * routes into a batch (no `allow_batch` on WP_REST_Users_Controller), and answers those
 * items `rest_batch_not_allowed` without running them; they are sent one by one instead, a few
 * at a time. https://make.wordpress.org/core/2020/11/20/rest-api-batch-framework-in-wordpress-5-6/
 */
export async function sendMany(client: WordPressClient, requests: readonly BatchRequest[]): Promise<BatchItemResult[]> {
  if (!requests.length) return [];
  const results = await client.batch(requests);
  const refused = results.flatMap((r, i) => (!r.ok && r.error.code === 'rest_batch_not_allowed' ? [i] : []));
  if (!refused.length) return results;
  await mapLimit(refused, client.concurrency, async (i) => {
    const request = requests[i] as BatchRequest;
    try {
      const body = request.method === 'DELETE'
        ? await client.delete(request.path, request.body as never)
        : await client.post(request.path, request.body);
      results[i] = { ok: true, status: 200, body };
    } catch (err) {
      if (!(err instanceof WordPressError)) throw err;
      // A lost answer may still be applied: the caller looks it up (#59.12).
      results[i] = { ok: false, status: err.status, error: err, ...(answerLost(err) ? { unknown: true as const } : {}) };
    }
  });
  return results;
}
