import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.js';
import { recordOutput } from '../helpers/output-log.js';
import { testSite, wp } from '../helpers/site.js';
import { newIdentity } from '../wordpress/users/helpers.js';

/**
 * README's interrupt example (#52.16), run as written with `cms-admin-toolkit/testing`'s
 * ScriptedChatModel in place of ChatOpenAI: the model asks create-user for an administrator
 * with no password (none is needed: the account gets WordPress's new-user email), the run stops
 * at the question, and the resume creates it.
 */
function readmeExample(): string {
  const readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
  const block = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] ?? '').find((code) => code.includes("approvals: 'interrupt'"));
  if (!block) throw new Error('README has no interrupt example');
  return block;
}

/** Bare imports resolved from this repository, so the file runs from a temporary folder. */
function resolvedImports(code: string): string {
  const own: Record<string, string> = {
    'cms-admin-toolkit': 'src/index.ts',
    'cms-admin-toolkit/testing': 'src/testing/index.ts',
  };
  return code.replace(/from '([^']+)'/g, (_, spec: string) => {
    const url = own[spec] ? pathToFileURL(path.join(REPO_ROOT, own[spec])).href : import.meta.resolve(spec);
    return `from '${url}'`;
  });
}

it('README’s interrupt example runs as written with ScriptedChatModel: the question, then the administrator, no password', async () => {
  const { username, email } = newIdentity('readmealice');
  const example = readmeExample();
  expect(example).toContain("new ChatOpenAI({ model: 'gpt-4.1-mini' })");
  const call = { id: 'call_1', name: 'create-user', args: { username, email, role: 'administrator' } };
  const code = resolvedImports(
    example
      .replace("import { ChatOpenAI } from '@langchain/openai';", "import { ScriptedChatModel } from 'cms-admin-toolkit/testing';\nimport { AIMessage } from '@langchain/core/messages';")
      .replace(
        "new ChatOpenAI({ model: 'gpt-4.1-mini' })",
        `new ScriptedChatModel({ responses: [new AIMessage({ content: '', tool_calls: [${JSON.stringify(call)}] }), 'Done.'] })`,
      ),
  );
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'readme-')), 'interrupt.mts');
  writeFileSync(file, `${code}\nconsole.log(JSON.stringify(result.messages.at(-1)?.content));\n`);
  const site = testSite();
  const child = spawn(process.execPath, ['--import', 'tsx', file], {
    cwd: REPO_ROOT,
    env: { ...process.env, CMS_URL: site.url, CMS_USERNAME: site.username, CMS_APP_PASSWORD: site.appPassword, CMS_JOURNAL: 'off' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const exit = await new Promise((resolve) => child.on('close', resolve));
  recordOutput(stdout + stderr);
  expect(exit, stderr).toBe(0);
  expect(stdout).toContain(`create the user ${username} <${email}> with the role administrator (manage_options`);
  expect(stdout.trim().split('\n').at(-1)).toBe('"Done."');
  const found = await wp().get<Array<{ id: number; username: string; roles: string[] }>>('/wp/v2/users', { search: username, context: 'edit' });
  const made = found.find((u) => u.username === username);
  expect(made?.roles).toEqual(['administrator']);
  await wp().delete(`/wp/v2/users/${made?.id}`, { force: true, reassign: 1 });
});
