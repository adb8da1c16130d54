import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { ScriptedOpenAI } from '../helpers/scripted-openai.js';
import { unique, wordPressAtLeast } from '../helpers/site.js';
import { ABILITY, productsTitled } from '../wordpress/abilities/helpers.js';

/**
 * `cms-admin chat --abilities` (issue #62): the chosen abilities are tools of the session, whatever
 * its toolsets; a read-only one runs, one that writes is asked (refused here: no terminal, no
 * --yes); a name the site does not have stops the chat before it starts.
 */
let server: ScriptedOpenAI;
beforeAll(async () => {
  server = await new ScriptedOpenAI().start();
});
afterAll(() => server.stop());
beforeEach(() => server.clear());
const withModel = () => ({ OPENAI_API_KEY: 'test', OPENAI_BASE_URL: server.url, CMS_AGENT_MODEL: 'scripted' });

describe.skipIf(!wordPressAtLeast('6.9'))('cms-admin chat --abilities', () => {
  it('offers the chosen abilities as tools; a read runs, a write is asked (and refused without a terminal)', async () => {
    const title = unique('Chat ability product');
    let offered: string[] = [];
    server.script(
      (request) => {
        offered = (request.tools ?? []).map((tool) => tool.function.name);
        return { toolCalls: [{ name: 'cms-sandbox_products-query', args: { search: 'Mug' } }] };
      },
      { toolCalls: [{ name: 'cms-sandbox_product-create', args: { title } }] },
      { content: 'Done.' },
    );
    const run = await runCli(['chat', '--once', 'Find the mug, add a product.', '--json', '--abilities', `${ABILITY.query},${ABILITY.create}`], { env: withModel() });
    expect(run.code, run.stderr).toBe(0);
    expect(offered).toEqual(expect.arrayContaining(['cms-sandbox_products-query', 'cms-sandbox_product-create']));
    expect(offered).not.toContain('run-ability');
    const trace = JSON.parse(run.stdout) as { toolCalls: Array<{ name: string; ok: boolean; result: string }> };
    expect(trace.toolCalls.map((c) => [c.name, c.ok])).toEqual([
      ['cms-sandbox_products-query', true],
      ['cms-sandbox_product-create', false],
    ]);
    expect(trace.toolCalls[0]?.result).toContain('Ceramic Mug');
    expect(trace.toolCalls[1]?.result).toContain('rejected_by_user');
    expect(await productsTitled(title)).toEqual([]);
  });

  it('a name the site does not have stops the chat, naming it', async () => {
    const run = await runCli(['chat', '--once', 'hi', '--abilities', 'cms-sandbox/no-such'], { env: withModel() });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('cms-sandbox/no-such');
    expect(run.stderr).toContain('find-abilities');
  });
});
