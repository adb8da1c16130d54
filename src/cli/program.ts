import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { loadDotEnv } from './dotenv.js';
import { packageRoot } from '../package-root.js';

/**
 * What every start of `cms-admin` does before its commands are registered (main.ts: every command;
 * invoke-main.ts: `invoke` alone, bin.ts's single-file path) and after (`runProgram`).
 */
export function createProgram(): Command {
  // `cms-admin tools | head`: a reader that closes the pipe early ends the output, not the process with a stack trace.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw err;
    });
  }

  // ./.env (as `cms-admin site env >> .env` writes it); variables already set win.
  loadDotEnv();

  const { version } = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string };

  return (
    new Command('cms-admin')
      .version(version)
      .description(
        'Administer a WordPress site’s categories, tags, taxonomies, users and roles — by LLM agent or by hand.',
      )
      .showHelpAfterError()
      // Plain http to another machine carries the application password unencrypted: refused unless
      // said here (or CMS_ALLOW_INSECURE_HTTP=1), on any command, before or after its name.
      .option(
        '--allow-insecure-http',
        'send the application password over plain http to a host that is not this machine (default: refused)',
      )
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
      )
  );
}

/** The options every site command takes, then the run: parse the arguments, report what throws. */
export function runProgram(program: Command): void {
  // `--site NAME` on every command that talks to a site (issue #38): it sets CMS_SITE, which the
  // one resolver of the site reads (cli/site-config.ts), so every command gets it the same way.
  const SITE_COMMANDS = ['invoke', 'chat', 'mcp', 'undo', 'changes', 'audit', 'plugin status', 'tools'];
  for (const path of SITE_COMMANDS) {
    const command = path
      .split(' ')
      .reduce<Command | undefined>((at, name) => at?.commands.find((c) => c.name() === name), program);
    command?.option(
      '--site <name>',
      'the site profile to use (default: env CMS_SITE, else CMS_URL; see `cms-admin sites`)',
    );
    // Without a profile or CMS_URL these commands use a local sandbox: which one, by name (#52.5).
    command?.option(
      '--sandbox <name>',
      'without --site or CMS_URL: the local sandbox of this name (default: env CMS_SANDBOX_NAME, else site)',
    );
  }
  program.hook('preAction', (_program, action) => {
    const site = (action.opts() as { site?: unknown }).site;
    if (typeof site === 'string') process.env.CMS_SITE = site;
    const sandbox = (action.opts() as { sandbox?: unknown }).sandbox;
    if (typeof sandbox === 'string') process.env.CMS_SANDBOX_NAME = sandbox;
    if ((program.opts() as { allowInsecureHttp?: boolean }).allowInsecureHttp)
      process.env.CMS_ALLOW_INSECURE_HTTP = '1';
  });

  program.parseAsync(process.argv).catch((err: unknown) => {
    process.stderr.write(`cms-admin: ${err instanceof Error ? err.message : String(err)}\n`);
    // A refusal's fix (a ToolError's hint: a damaged change store, #59.6) is said with it.
    const hint = (err as { hint?: unknown } | undefined)?.hint;
    if (typeof hint === 'string') process.stderr.write(`${hint}\n`);
    // A setting with a wrong value is fixed before anything can run, like a bad call: exit 2.
    // (ConfigError, matched by its fields: main loads no site module up front.)
    process.exitCode = (err as { code?: unknown } | undefined)?.code === 'invalid_config' ? 2 : 1;
  });
}
