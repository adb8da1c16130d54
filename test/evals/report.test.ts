import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { testSandbox } from '../helpers/sandboxes.js';
import { createChatModel } from '../../src/agent/model.js';
import { DEFAULT_CASES_DIR } from '../../src/evals/loader.js';
import type { ModelSource } from '../../src/evals/models.js';
import { referenceScript } from '../../src/evals/reference.js';
import { ScriptedOpenAI } from '../../src/evals/scripted-openai.js';
import { collectSecrets } from '../../src/evals/secrets.js';
import { lastToolResult } from '../helpers/agent.js';
import { runCli } from '../helpers/cli.js';
import { caseById, restoreSeeded, runOnTestSandbox } from './helpers.js';

afterAll(() => restoreSeeded());

/**
 * Replays the reference, but the final answer echoes everything secret the agent could have
 * seen or been given: the last tool result (a reset link, were it there), the case's passwords,
 * and (as if leaked) the application password. The report must carry none of them.
 */
async function leakySource(leaks: { seen: unknown[] }): Promise<ModelSource> {
  const server = await new ScriptedOpenAI().start();
  const { appPassword } = testSandbox();
  return {
    name: 'leaky',
    model: () => createChatModel({ model: 'leaky', apiKey: 'x', baseURL: server.url, timeoutMs: 30_000 }),
    beforeTurn(reference, resolver) {
      server.clear();
      const steps = referenceScript(reference, resolver);
      const given = [...collectSecrets(reference)].join(', ') || 'none';
      steps[steps.length - 1] = (request) => {
        const seen = lastToolResult(request);
        leaks.seen.push(seen);
        const link = String(seen?.reset_link ?? 'none');
        return { content: `Link: ${link}. Passwords: ${given}, ${appPassword}.` };
      };
      server.script(...steps);
    },
    afterTurn: () => undefined,
    close: () => server.stop(),
  };
}

describe('eval report', () => {
  it('masks passwords, reset links and the application password, in args and answers', async () => {
    const leaks = { seen: [] as any[] };
    const models = await leakySource(leaks);
    try {
      const report = await runOnTestSandbox(
        [await caseById('create-user-author'), await caseById('reset-password-link')],
        models,
      );
      expect(report.cases.map((c) => [c.id, c.passed])).toEqual([
        ['create-user-author', true],
        ['reset-password-link', true],
      ]);
      // The model was told a link went to the operator, never the link itself.
      expect(leaks.seen[1]).toMatchObject({ delivery: 'link', link_given_to: 'the operator' });
      expect(JSON.stringify(leaks.seen)).not.toMatch(/action=rp/);
      const text = JSON.stringify(report);
      for (const secret of ['Correct-Horse-Battery-42', testSandbox().appPassword]) {
        expect(text).not.toContain(secret);
      }
      expect(report.cases[0]?.toolCalls[0]?.args.password).toBe('[REDACTED]');
      expect(report.cases.map((c) => c.answers[0])).toEqual([
        'Link: none. Passwords: [REDACTED], [REDACTED].',
        'Link: none. Passwords: none, [REDACTED].',
      ]);
    } finally {
      await models.close();
    }
  });
});

describe('cms-admin eval (CLI)', () => {
  const { name, port, home } = testSandbox();
  const args = ['eval', '--model', 'scripted', '--name', name, '--port', String(port)];
  const env = { CMS_SANDBOX_HOME: home };

  it('--json prints the report and exits 0 when every case passes', async () => {
    const run = await runCli([...args, '--filter', 'list-editors', '--json'], { env, timeoutMs: 120_000 });
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.summary).toMatchObject({ total: 1, passed: 1, failed: 0 });
    expect(report.cases[0]).toMatchObject({ id: 'list-editors', passed: true, steps: 2 });
    expect(run.stderr).toContain('PASS list-editors');
  });

  it('prints a table with the failure reason and exits 1 when a case fails', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'eval-cases-'));
    const original = await readFile(join(DEFAULT_CASES_DIR, 'list-editors.yaml'), 'utf8');
    await writeFile(
      join(dir, 'list-editors.yaml'),
      original.replace('Barbara Liskov]', 'Barbara Liskov, Ada Lovelace]'),
    );
    const run = await runCli([...args, '--cases', dir], { env, timeoutMs: 120_000 });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^list-editors\s+single\s+FAIL\s+2\s+1\s+\d+\s+\d+ ms\s+[\d.]+ s$/m);
    expect(run.stdout).toContain('answer does not mention "Ada Lovelace"');
  });

  it('exits 2 when no case matches the filter or no model is configured', async () => {
    const none = await runCli([...args, '--filter', 'no-such-case'], { env });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no case matches --filter "no-such-case"');
    const noModel = await runCli(['eval', '--filter', 'list-editors'], {
      env: { ...env, OPENAI_API_KEY: '', OPENAI_BASE_URL: '' },
    });
    expect(noModel.code).toBe(2);
    expect(noModel.stderr).toContain('--model scripted');
  });
});
