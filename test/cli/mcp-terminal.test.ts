import { afterAll, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.js';
import { testSite } from '../helpers/site.js';
import { TmuxTerminal } from '../helpers/tmux.js';
import { cliShell } from '../helpers/cli-bin.js';

// `cms-admin mcp` started by hand in a terminal: it says what it waits for (on stderr) instead
// of looking hung. Started by a client (stdin a pipe) it prints nothing: test/cli/mcp*.test.ts.
const term = new TmuxTerminal('cms-mcp-terminal');
afterAll(() => term.stop());

it('on a terminal, mcp says on stderr that it waits for an MCP client and how to try it', async () => {
  const site = testSite();
  const env = `CMS_URL='${site.url}' CMS_USERNAME='${site.username}' CMS_APP_PASSWORD='${site.appPassword}'`;
  // stdout (the protocol's) goes to /dev/null: what the terminal shows came on stderr.
  term.start(`cd ${REPO_ROOT} && env ${env} ${cliShell()} mcp > /dev/null; sleep 600`);
  const shown = await term.waitFor('waiting for an MCP client');
  // The pinned Inspector the conformance test runs (#52.15), so it works on every supported Node.
  expect(shown).toContain('npx -y -p node@24.21.0 -p @modelcontextprotocol/inspector@2.12.0 -- mcp-inspector npx cms-admin mcp');
  expect(shown).toContain('npx cms-admin mcp --http');
});
