import { type Command, InvalidArgumentError } from 'commander';
import type { EvalOptions } from '../evals/cli-run.js';

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new InvalidArgumentError('expected an integer 1-65535');
  return port;
}

export function registerEvalCommand(program: Command): void {
  program
    .command('eval')
    .description(
      'Run the scripted evals (evals/cases/*.yaml): an agent on real site tasks, checked by reading the site',
    )
    .option(
      '--model <name>',
      '"scripted" replays each case’s reference trajectory; otherwise a model name (default $CMS_AGENT_MODEL)',
    )
    .option('--filter <text>', 'only cases whose id, title or category contains this')
    .option('--json', 'print the report as JSON on stdout (for CI)')
    .option('--port <port>', 'port of the eval sandbox', parsePort, 8940)
    .option('--name <name>', 'sandbox instance the evals run on', 'eval')
    .option('--network-port <port>', 'port of the multisite eval sandbox (network cases)', parsePort, 8944)
    .option('--network-name <name>', 'multisite sandbox instance the network cases run on', 'eval-net')
    .option('--cases <dir>', 'directory of case files (default evals/cases)')
    .addHelpText(
      'after',
      `
Each case starts from the sandbox's \`seeded\` snapshot plus its fixture. The sandbox instance is
started (and seeded) when needed and left running; stop it with \`cms-admin site down --name eval\`.
Cases with \`target: network\` run on a multisite sandbox (eval-net, sites sports, news, arts) as
installed, with the network tools; \`--filter network\` runs only them.
Model: OPENAI_API_KEY, OPENAI_BASE_URL (any OpenAI-compatible server), CMS_AGENT_MODEL, as for chat.
Exit code: 0 every case passed, 1 a case failed, 2 nothing to run or no model.`,
    )
    .action(async (options: EvalOptions) => {
      const { runEvalCommand } = await import('../evals/cli-run.js');
      process.exitCode = await runEvalCommand(options);
    });
}
