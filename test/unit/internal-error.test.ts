import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { WordPressError } from '../../src/client/index.js';
import { approveAll, callTool, type AnyToolDefinition, defineTool, type ToolContext, ToolError } from '../../src/call/index.js';

const context = { client: { connect: async () => ({}) }, secrets: ['s3cret-app-pw'] } as unknown as ToolContext;
/** The tool through the pipeline every surface uses (resolve, decide, run). */
const runTool = (tool: AnyToolDefinition, ctx: ToolContext, params: Record<string, unknown>) => callTool({ tool, params }, ctx, {}, approveAll);

function toolThrowing(error: unknown) {
  return defineTool({
    name: 'test-tool',
    toolkit: 'taxonomy',
    description: 'test',
    schema: z.strictObject({}),
    annotations: { readOnly: true, destructive: false, idempotent: true },
    execute: async () => {
      throw error;
    },
  });
}

describe('errors a tool throws', () => {
  it('a bug is internal_error, never a tool error the model should work around; secrets masked', async () => {
    const outcome = await runTool(
      toolThrowing(new TypeError("Cannot read properties of undefined (reading 's3cret-app-pw')")),
      context,
      {},
    );
    expect(outcome).toMatchObject({ ok: false, error: { code: 'internal_error' } });
    if (outcome.ok) return;
    expect(outcome.error.message).toContain('bug in cms-admin-toolkit');
    expect(outcome.error.message).toContain('TypeError');
    expect(JSON.stringify(outcome)).not.toContain('s3cret-app-pw');
    expect(JSON.stringify(outcome)).not.toMatch(/at .*\.ts:\d+/);
  });

  it('site and input problems keep their own codes', async () => {
    const site = await runTool(
      toolThrowing(new WordPressError({ status: 404, code: 'rest_no_route', message: 'No route' })),
      context,
      {},
    );
    expect(site).toMatchObject({ ok: false, error: { code: 'rest_no_route' } });
    const input = await runTool(
      toolThrowing(new ToolError('category_not_found', 'No category with id 9.')),
      context,
      {},
    );
    expect(input).toMatchObject({ ok: false, error: { code: 'category_not_found' } });
  });

  it("a write WordPress refused with 501 (a site's delete on a multisite network) is not a lost answer: the hint says nothing changed", async () => {
    const refused = new WordPressError({
      status: 501,
      code: 'rest_cannot_delete',
      message: 'The user cannot be deleted.',
      request: { method: 'DELETE', url: 'http://127.0.0.1/wp-json/wp/v2/users/3' },
    });
    const outcome = await runTool(toolThrowing(refused), context, {});
    expect(outcome).toMatchObject({ ok: false, error: { code: 'rest_cannot_delete', hint: 'WordPress does not do this on this site, and changed nothing.' } });
    const lost = new WordPressError({ status: 502, code: 'http_502', message: 'Bad Gateway', request: { method: 'DELETE', url: 'http://127.0.0.1/x' } });
    expect(await runTool(toolThrowing(lost), context, {})).toMatchObject({ ok: false, error: { hint: expect.stringContaining('answer lost') } });
  });
});
