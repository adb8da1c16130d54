import { type Command, InvalidArgumentError, Option } from 'commander';
import {
  envLines,
  readCredentials,
  resolveInstance,
  type SandboxOptions,
  siteDown,
  siteReset,
  siteSeed,
  siteStatus,
  siteUp,
} from '../sandbox/index.js';
import { DEFAULT_WP, parseWpVersion, SUPPORTED_WP } from '../sandbox/versions.js';

interface NameOpts {
  name?: string;
  sandbox?: string;
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new InvalidArgumentError('expected an integer 1-65535');
  return port;
}

/** Errors become one line on stderr and exit code 1 (2 for a setting's wrong value); details stay in the instance's logs/. */
function action<A extends unknown[]>(fn: (...args: A) => Promise<void>): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await fn(...args);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      process.stderr.write(`cms-admin site: ${message.split('\n')[0]}\n`);
      // A setting's wrong value (CMS_SANDBOX_PORT=abc) is exit 2, like the same flag's.
      process.exitCode = (err as { code?: unknown }).code === 'invalid_config' ? 2 : 1;
    }
  };
}

const sandbox = (o: NameOpts & { port?: number; wp?: string; backend?: string }): SandboxOptions => ({
  name: o.name ?? o.sandbox,
  port: o.port,
  wp: o.wp,
  backend: o.backend,
});

function parseWp(value: string): string {
  try {
    return parseWpVersion(value);
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message.replace(/ \(from --wp\)/, ''));
  }
}

const NAME_HELP = 'sandbox instance name (default: env CMS_SANDBOX_NAME, else site); each lives in <sandbox home>/<name>/';

export function registerSiteCommands(program: Command): void {
  const site = program
    .command('site')
    .description('Run a local WordPress sandbox (MariaDB + PHP built-in server) to try the toolkit against')
    .addHelpText(
      'after',
      `
Instances live in one folder per person, whatever the current folder: $CMS_SANDBOX_HOME, else
$XDG_DATA_HOME/cms-admin/sandbox (default ~/.local/share/cms-admin/sandbox; \`site status\` names it).
Choose one by name with --name/--sandbox NAME or CMS_SANDBOX_NAME (also on chat, npm start, invoke,
mcp, undo, changes). The first \`site up\` installs
PHP, MariaDB and WordPress core from Debian packages when run as root. WordPress ${SUPPORTED_WP.join(', ')}
come from Debian's archive (bookworm, trixie, sid), each cached once in <sandbox home>/core/<version>.
Progress goes to stderr; only \`site env\` prints the application password.`,
    );

  site
    .command('up')
    .description('Start the sandbox (installing WordPress on first use) and wait until its REST API answers')
    .option('--seed', 'load the demo dataset (30+ categories, 50+ tags, 200+ posts, 20+ users) into a fresh database')
    .option(
      '--port <port>',
      'HTTP port on 127.0.0.1 (default: $CMS_SANDBOX_PORT, the last port used, or 8888)',
      parsePort,
    )
    .option(
      '--wp <version>',
      `WordPress version of a new instance: ${SUPPORTED_WP.join(', ')} (default: $CMS_SANDBOX_WP or ${DEFAULT_WP}); an existing instance keeps its own`,
      parseWp,
    )
    .addOption(
      new Option(
        '--backend <backend>',
        'native (PHP + MariaDB), playground (WordPress Playground, installed on demand) or auto: native where possible (default: $CMS_SANDBOX_BACKEND or auto)',
      ).choices(['auto', 'native', 'playground']),
    )
    .option(
      '--multisite',
      'a new instance becomes a subdirectory multisite network: sites sports, news and arts, users with a role on several, one super admin (docs/multisite.md)',
    )
    .option('--name <name>', NAME_HELP)
    .option('--sandbox <name>', 'the same as --name')
    .action(
      action(async (o: NameOpts & { port?: number; seed?: boolean; wp?: string; backend?: string; multisite?: boolean }) => {
        await siteUp({ ...sandbox(o), seed: o.seed, multisite: o.multisite });
      }),
    );

  site
    .command('down')
    .description("Stop the sandbox's PHP server and MariaDB (data is kept)")
    .option('--name <name>', NAME_HELP)
    .option('--sandbox <name>', 'the same as --name')
    .action(action(async (o: NameOpts) => siteDown(sandbox(o))));

  site
    .command('status')
    .description('Show whether the sandbox is running, its URL and whether it is installed and seeded')
    .option('--json', 'print the status as JSON')
    .option('--name <name>', NAME_HELP)
    .option('--sandbox <name>', 'the same as --name')
    .action(
      action(async (o: NameOpts & { json?: boolean }) => {
        const s = await siteStatus(sandbox(o));
        if (o.json) {
          process.stdout.write(`${JSON.stringify(s, null, 2)}\n`);
          return;
        }
        const flags = [s.installed ? 'installed' : 'not installed', s.seeded ? 'seeded' : 'not seeded']
          .concat(s.network ? ['multisite network'] : [])
          .join(', ');
        const wp = s.wordpress ? `WordPress ${s.wordpress} ` : '';
        const on = s.backend === 'playground' ? ' on Playground' : '';
        process.stdout.write(
          `sandbox "${s.name}": ${wp}${s.running ? `running${on} at ${s.url}` : 'stopped'} (${flags})\ndir: ${s.dir}\nhome: ${s.home}${process.env.CMS_SANDBOX_HOME ? ' (CMS_SANDBOX_HOME)' : ''}\n`,
        );
      }),
    );

  site
    .command('reset')
    .description('Restore the fresh, empty WordPress install (fast; the app password keeps working)')
    .option('--name <name>', NAME_HELP)
    .option('--sandbox <name>', 'the same as --name')
    .action(action(async (o: NameOpts) => siteReset(sandbox(o))));

  site
    .command('seed')
    .description('Reset, then load the deterministic demo dataset (same data every time)')
    .option('--name <name>', NAME_HELP)
    .option('--sandbox <name>', 'the same as --name')
    .action(action(async (o: NameOpts) => siteSeed(sandbox(o))));

  site
    .command('env')
    .description(
      'Print CMS_URL, CMS_USERNAME and CMS_APP_PASSWORD dotenv lines for the sandbox (e.g. >> .env); on a network, its sites\' URLs as comments first',
    )
    .option('--name <name>', NAME_HELP)
    .option('--sandbox <name>', 'the same as --name')
    .option('--login', "also print the admin's login password, for signing in to wp-admin in a browser (as comments: .env ignores them)")
    .action(
      action(async (o: NameOpts & { login?: boolean }) => {
        const creds = await readCredentials(sandbox(o));
        if (!creds) {
          const inst = resolveInstance(sandbox(o));
          throw new Error(
            `sandbox "${inst.name}" is not installed yet in ${inst.home}; run \`cms-admin site up${inst.name === 'site' ? '' : ` --name ${inst.name}`}\` (or set CMS_SANDBOX_HOME to where it lives)`,
          );
        }
        const login = o.login
          ? [`# wp-admin: ${creds.url.replace(/\/+$/, '')}/wp-login.php`, `# login: ${creds.username}`, `# password: ${creds.adminPassword}`]
          : [];
        process.stdout.write(`${[...login, ...envLines(creds)].join('\n')}\n`);
      }),
    );
}
