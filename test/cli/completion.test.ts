import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliShell } from '../helpers/cli-bin.js';
import { runCli } from '../helpers/cli.js';
import { TmuxTerminal } from '../helpers/tmux.js';

/** #52.3: `cms-admin completion bash|zsh|fish`, loaded in a real bash and answering Tab. */
const bin = mkdtempSync(path.join(tmpdir(), 'cms-bin-'));
writeFileSync(path.join(bin, 'cms-admin'), `#!/bin/sh\nexec ${cliShell()} "$@"\n`);
chmodSync(path.join(bin, 'cms-admin'), 0o755);
const env = { ...process.env, PATH: `${bin}:${process.env.PATH}` };

/** What the bash completion function answers for this line (as bash calls it at a Tab). */
function bashComplete(line: string): string[] {
  const script = `eval "$(cms-admin completion bash)"; COMP_LINE=${JSON.stringify(line)}; COMP_POINT=\${#COMP_LINE}; _cms_admin; printf '%s\\n' "\${COMPREPLY[@]}"`;
  return execFileSync('bash', ['--norc', '--noprofile', '-c', script], { env, encoding: 'utf8' }).split('\n').filter(Boolean);
}

describe('cms-admin completion', () => {
  const term = new TmuxTerminal('cms-completion');
  afterAll(() => term.stop());

  it('bash: commands, flags, tool names, parameter names and values, format names', () => {
    expect(bashComplete('cms-admin ')).toEqual(expect.arrayContaining(['chat', 'invoke', 'sites', 'site', 'undo', 'completion']));
    expect(bashComplete('cms-admin inv')).toEqual(['invoke']);
    expect(bashComplete('cms-admin invoke get-cms-')).toEqual(['get-cms-categories', 'get-cms-tags']);
    expect(bashComplete('cms-admin invoke update-tag id=3 ')).toEqual(expect.arrayContaining(['name=', 'slug=', 'description=']));
    expect(bashComplete('cms-admin invoke update-tag id=3 ')).not.toContain('id=');
    expect(bashComplete('cms-admin invoke get-cms-tags hide_empty=')).toEqual(['true', 'false']);
    expect(bashComplete('cms-admin invoke --for')).toEqual(['--format']);
    expect(bashComplete('cms-admin invoke --format c')).toEqual(['csv', 'count']);
    expect(bashComplete('cms-admin site st')).toEqual(['status']);
    expect(bashComplete('cms-admin completion ')).toEqual(['bash', 'zsh', 'fish']);
  });

  it('--toolsets: the toolset names and all, and after a comma the names not given yet (#60.7)', () => {
    expect(bashComplete('cms-admin tools --toolsets ')).toEqual(expect.arrayContaining(['taxonomy', 'taxonomy-cleanup', 'users', 'roles', 'all']));
    expect(bashComplete('cms-admin tools --toolsets tax')).toEqual(['taxonomy', 'taxonomy-cleanup']);
    expect(bashComplete('cms-admin chat --toolsets taxonomy,us')).toEqual(['taxonomy,users']);
    expect(bashComplete('cms-admin mcp --toolsets taxonomy,')).not.toContain('taxonomy,taxonomy');
    expect(bashComplete('cms-admin mcp --toolsets taxonomy,')).toContain('taxonomy,roles');
  });

  it('profile names and groups from the profiles file (no site reached)', () => {
    const config = mkdtempSync(path.join(tmpdir(), 'cms-config-'));
    const file = path.join(config, 'sites.json');
    writeFileSync(file, JSON.stringify({ version: 1, sites: [{ name: 'shop', url: 'https://shop.example', username: 'a', appPassword: 'x', groups: ['clients'] }, { name: 'blog', url: 'https://blog.example', username: 'a', appPassword: 'x', groups: [] }] }), { mode: 0o600 });
    const script = `eval "$(cms-admin completion bash)"; COMP_LINE='cms-admin invoke --sites '; COMP_POINT=\${#COMP_LINE}; _cms_admin; printf '%s\\n' "\${COMPREPLY[@]}"`;
    const out = execFileSync('bash', ['--norc', '-c', script], { env: { ...env, CMS_SITES_FILE: file }, encoding: 'utf8' });
    expect(out.trim().split('\n')).toEqual(['shop', 'blog', '@clients', 'all']);
  });

  it('an interactive bash answers Tab with it', async () => {
    term.start(`env PATH='${bin}:${process.env.PATH}' HOME='${bin}' PS1='$ ' bash --norc --noprofile -i`);
    await term.waitFor('$');
    term.type('eval "$(cms-admin completion bash)"', 'Enter');
    term.type('cms-admin invoke get-cms-ta', 'Tab');
    await term.waitFor(/cms-admin invoke get-cms-tags $/m);
    term.type('hide', 'Tab');
    await term.waitFor(/cms-admin invoke get-cms-tags hide_empty=$/m);
  });

  it('zsh and fish scripts; an unknown shell is exit 2', async () => {
    expect((await runCli(['completion', 'zsh'])).stdout).toContain('compdef _cms_admin cms-admin');
    expect((await runCli(['completion', 'fish'])).stdout).toContain("complete -c cms-admin -f -a '(__cms_admin_complete)'");
    const fish = await runCli(['__complete', '--shell', 'fish', '--', 'cms-admin invoke get-cms-tags hide_empty=t']);
    expect(fish.stdout.trim()).toBe('hide_empty=true');
    const bad = await runCli(['completion', 'tcsh']);
    expect(bad.code).toBe(2);
  });
});
