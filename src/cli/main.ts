#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { loadDotEnv } from './dotenv.js';
import { packageRoot } from '../package-root.js';

// `cms-admin tools | head`: a reader that closes the pipe early ends the output, not the process with a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
}

// ./.env (as `cms-admin site env >> .env` writes it); variables already set win.
loadDotEnv();

/** Entry point of `cms-admin`. Heavy modules (langchain) load only in the commands that need them. */
const { version } = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string };

const program = new Command('cms-admin')
  .version(version)
  .description('Administer a WordPress site’s categories, tags, taxonomies, users and roles — by LLM agent or by hand.')
  .showHelpAfterError()
  // Plain http to another machine carries the application password unencrypted: refused unless
  // said here (or CMS_ALLOW_INSECURE_HTTP=1), on any command, before or after its name.
  .option('--allow-insecure-http', 'send the application password over plain http to a host that is not this machine (default: refused)')
  // A usage mistake (unknown option, a flag's invalid value) exits 2 like a bad call or a wrong
  // setting; help and --version exit 0 as before. Subcommands inherit this.
  .exitOverride((err) => process.exit(err.exitCode === 1 ? 2 : err.exitCode))
  .addHelpText(
    'after',
    `
Site: --site NAME (or CMS_SITE) names a profile (\`cms-admin sites\`); else CMS_URL, CMS_USERNAME,
CMS_APP_PASSWORD (an application password). Without either, commands use the local sandbox
started by \`cms-admin site up\`. \`invoke --sites a,b|@group|all\` runs one call on many
sites; \`chat --sites\` and \`mcp --sites\` give the agent several sites (every tool takes site,
a write on several asks once). ./.env is read too (the environment wins).`,
  );

// `cms-admin invoke …` (scripts, agents calling one tool at a time) registers only its own command:
// the other commands' modules (sandbox, plugin, chat, changes …) are not loaded, the start-up
// target of BENCHMARKS.md. Everything else, `--help` included, sees every command.
if (process.argv[2] === 'invoke') {
  (await import('./invoke/invoke.js')).registerInvokeCommand(program);
} else {
  for (const register of await allCommands()) register(program);
  registerCompletion(program);
}

/** `completion bash|zsh|fish` prints the script; `__complete` (hidden) answers each Tab (#52.3). */
function registerCompletion(root: Command): void {
  root
    .command('completion')
    .description('Print the shell completion script: commands, flags, tool and parameter names, profiles, sandboxes')
    .argument('<shell>', 'bash, zsh or fish')
    .addHelpText(
      'after',
      `
bash: eval "$(cms-admin completion bash)"   (add it to ~/.bashrc)
zsh:  eval "$(cms-admin completion zsh)"    (in ~/.zshrc, after compinit)
fish: cms-admin completion fish > ~/.config/fish/completions/cms-admin.fish`,
    )
    .action(async (shell: string) => {
      process.stdout.write((await import('./completion.js')).completionScript(shell));
    });
  root
    .command('__complete', { hidden: true })
    .option('--shell <shell>', 'bash, zsh or fish', 'bash')
    .argument('[line...]', 'the command line up to the cursor')
    .action(async (line: string[], options: { shell: string }) => {
      const { complete, wordsOf } = await import('./completion.js');
      const shell = options.shell === 'zsh' || options.shell === 'fish' ? options.shell : 'bash';
      const found = await complete(root, wordsOf(line.join(' ')), shell);
      if (found.length) process.stdout.write(`${found.join('\n')}\n`);
    });
}

// `--site NAME` on every command that talks to a site (issue #38): it sets CMS_SITE, which the
// one resolver of the site reads (cli/site-config.ts), so every command gets it the same way.
const SITE_COMMANDS = ['invoke', 'chat', 'mcp', 'undo', 'changes', 'audit', 'plugin status', 'tools'];
for (const path of SITE_COMMANDS) {
  const command = path.split(' ').reduce<Command | undefined>((at, name) => at?.commands.find((c) => c.name() === name), program);
  command?.option('--site <name>', 'the site profile to use (default: env CMS_SITE, else CMS_URL; see `cms-admin sites`)');
  // Without a profile or CMS_URL these commands use a local sandbox: which one, by name (#52.5).
  command?.option('--sandbox <name>', 'without --site or CMS_URL: the local sandbox of this name (default: env CMS_SANDBOX_NAME, else site)');
}
program.hook('preAction', (_program, action) => {
  const site = (action.opts() as { site?: unknown }).site;
  if (typeof site === 'string') process.env.CMS_SITE = site;
  const sandbox = (action.opts() as { sandbox?: unknown }).sandbox;
  if (typeof sandbox === 'string') process.env.CMS_SANDBOX_NAME = sandbox;
  if ((program.opts() as { allowInsecureHttp?: boolean }).allowInsecureHttp) process.env.CMS_ALLOW_INSECURE_HTTP = '1';
});

program.parseAsync(process.argv).catch((err: unknown) => {
  process.stderr.write(`cms-admin: ${err instanceof Error ? err.message : String(err)}\n`);
  // A setting with a wrong value is fixed before anything can run, like a bad call: exit 2.
  // (ConfigError, matched by its fields: main loads no site module up front.)
  process.exitCode = (err as { code?: unknown } | undefined)?.code === 'invalid_config' ? 2 : 1;
});

/** Every command's registration, in the order `--help` lists them. */
async function allCommands(): Promise<Array<(program: Command) => void>> {
  const [audit, changes, chat, evals, invoke, mcp, plugin, site, sites, tools] = await Promise.all([
    import('./audit.js'),
    import('./undo/changes.js'),
    import('./chat/chat.js'),
    import('./eval.js'),
    import('./invoke/invoke.js'),
    import('./mcp.js'),
    import('./plugin.js'),
    import('./site.js'),
    import('./sites/sites.js'),
    import('./tools.js'),
  ]);
  return [
    chat.registerChatCommand,
    invoke.registerInvokeCommand,
    tools.registerToolsCommand,
    mcp.registerMcpCommand,
    audit.registerAuditCommand,
    changes.registerChangeCommands,
    site.registerSiteCommands,
    sites.registerSitesCommands,
    plugin.registerPluginCommands,
    evals.registerEvalCommand,
  ];
}
