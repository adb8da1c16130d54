import os from 'node:os';
import type { Measurement } from './measure.js';

const ms = (m: Measurement) => `${m.ms.toFixed(0)} ms`;
const x = (n: number) => `${n.toFixed(2)}×`;

function bulkTable(title: string, rows: Record<string, Measurement>, targets: string): string {
  const { floor, perPost, tool, toolRestOnly } = rows as Record<'floor' | 'perPost' | 'tool' | 'toolRestOnly', Measurement>;
  return `### ${title}

| approach | wall time (median) | HTTP requests |
|---|---|---|
| floor: paged GETs at 100 + batch POSTs at 25, sent directly | ${ms(floor)} | ${floor.requests} |
| per-post: GET then POST per post, sequential (1 run) | ${ms(perPost)} | ${perPost.requests} |
| **our tool** (companion plugin's bulk route) | **${ms(tool)}** | **${tool.requests}** |
| our tool on a site without the plugin (/batch/v1) | ${ms(toolRestOnly)} | ${toolRestOnly.requests} |

Our tool vs floor: time ${x(tool.ms / floor.ms)}, requests ${x(tool.requests / floor.requests)}; per-post is ${x(perPost.ms / tool.ms)} slower with ${x(perPost.requests / tool.requests)} the requests.
Without the plugin: ${x(toolRestOnly.ms / floor.ms)} the floor's time, ${x(toolRestOnly.requests / floor.requests)} its requests; per-post is ${x(perPost.ms / toolRestOnly.ms)} slower. ${targets}
`;
}

export function renderReport(r: any): string {
  const toolRows = r.tools
    .map((t: any) => `| \`${t.tool}\` | ${t.note} | ${ms(t)} | ${t.requests} | ${t.bytes} |`)
    .join('\n');
  return `# Benchmarks

Produced by \`npm run bench\` (${r.runs} runs per measurement, median) on ${new Date().toISOString().slice(0, 10)}.
Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}.
Site: the sandbox WordPress ${r.wordpress ?? '(version unknown)'} (PHP 8.2 built-in server with 4 workers, MariaDB 10.11) grown to
${r.counts.categories} categories, ${r.counts.posts} posts (five statuses), ${r.counts.users} users. Whole run: ${r.seconds.toFixed(0)} s; 1-minute load
average ${os.loadavg()[0]?.toFixed(1)} on ${os.cpus().length} cores at the end (a shared machine inflates every time; compare ratios within a run).
HTTP requests are counted by the client (the tool's connect check is done before timing).

## Bulk work: floor vs per-post vs our tool

${bulkTable('Assign one category to 500 posts (mixed statuses)', r.assign, 'Targets: ≤1.3× floor, ≥10× faster than per-post.')}
${bulkTable('Merge 3 categories holding 300 posts of mixed statuses into a target', r.merge, 'Targets: ≤1.3× floor, ≥10× faster than per-post.')}
${bulkTable('Custom taxonomy: add one `genre` to 500 posts (`assign-terms-to-posts`; REST field `genres`)', r.genreAssign, 'Targets: ≤1.3× floor, ≥10× faster than per-post.')}
${bulkTable('Custom taxonomy: take one of two genres off 500 posts (`remove-terms-from-posts`)', r.genreRemove, 'Targets: ≤1.3× floor, ≥10× faster than per-post.')}
## Every tool

| tool | case | wall time (median) | HTTP requests | bytes returned to the model |
|---|---|---|---|---|
${toolRows}

## Listing and filtering

- \`get-cms-categories\` over ${r.listing.total} categories, every page through \`next_cursor\`: ${r.listing.concurrent.requests} GETs (target ≤ ${Math.ceil(r.listing.total / 100)}), ${ms(r.listing.concurrent)} vs ${ms(r.listing.sequential)} reading WordPress's pages directly one after another.
- \`list-users\` with \`registered_after: ${r.cutoff}\`: ${r.users.recent.total} users in ${r.users.recent.requests} request(s), ${ms(r.users.recent)}; without the filter: ${r.users.all.total} users in ${r.users.all.requests} requests, ${ms(r.users.all)}.

## Output size

\`list-users\` for ${r.output.users} users: ${r.output.ourBytes} bytes vs WordPress's raw JSON (context=edit) ${r.output.rawBytes} bytes — ${x(r.output.ratio)} smaller (target ≥5×).
`;
}
