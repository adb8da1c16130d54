#!/usr/bin/env node
import type { Command } from 'commander';
import { createProgram, runProgram } from './program.js';

/** Entry point of `cms-admin`. Heavy modules (langchain) load only in the commands that need them. */
const program = createProgram();

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

runProgram(program);

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
