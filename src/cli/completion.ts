import { readdirSync } from 'node:fs';
import type { Command, Option } from 'commander';
import { ConfigError } from '../config-error.js';
import { sandboxHome } from '../sandbox/paths.js';
import { readProfiles } from '../sites/store.js';

export type Shell = 'bash' | 'zsh' | 'fish';
export const SHELLS: readonly Shell[] = ['bash', 'zsh', 'fish'];

/**
 * `cms-admin completion bash|zsh|fish` (#52.3): a small script that asks `cms-admin __complete`
 * for the candidates at each Tab (as `gh completion` does), so commands, flags, tool names,
 * parameter names and values, profile names and sandbox names are those of now.
 */
export function completionScript(shell: string): string {
  if (shell === 'bash')
    return `# cms-admin completion for bash: eval "$(cms-admin completion bash)" (in ~/.bashrc)
_cms_admin() {
  local IFS=$'\\n'
  COMPREPLY=($(cms-admin __complete --shell bash -- "\${COMP_LINE:0:COMP_POINT}" 2>/dev/null))
  if [[ \${#COMPREPLY[@]} -eq 1 && \${COMPREPLY[0]} == *= ]]; then compopt -o nospace 2>/dev/null; fi
}
complete -F _cms_admin cms-admin
`;
  if (shell === 'zsh')
    return `#compdef cms-admin
# cms-admin completion for zsh: eval "$(cms-admin completion zsh)" (in ~/.zshrc, after compinit)
_cms_admin() {
  local -a items
  items=("\${(@f)$(cms-admin __complete --shell zsh -- "\${BUFFER[1,CURSOR]}" 2>/dev/null)}")
  compadd -Q -S '' -- \${(M)items:#*=}
  compadd -Q -- \${items:#*=}
}
compdef _cms_admin cms-admin
`;
  if (shell === 'fish')
    return `# cms-admin completion for fish: cms-admin completion fish > ~/.config/fish/completions/cms-admin.fish
function __cms_admin_complete
  cms-admin __complete --shell fish -- (commandline -cp) 2>/dev/null
end
complete -c cms-admin -f -a '(__cms_admin_complete)'
`;
  throw new ConfigError(`completion takes ${SHELLS.join(', ')}; got "${shell.slice(0, 20)}".`, 'invalid_config');
}

/** The command line up to the cursor as words; the last is the word being completed ('' after a space). */
export function wordsOf(line: string): string[] {
  const words = line.match(/(?:[^\s"']+|"(?:[^"\\]|\\.)*"?|'[^']*'?)+/g)?.map((w) => w.replace(/^(['"])(.*)\1?$/s, '$2')) ?? [];
  if (/\s$/.test(line) || !words.length) words.push('');
  return words;
}

const takesValue = (o: Option) => o.required || o.optional;

/**
 * The candidates for the last word of `words` (the first is `cms-admin`). For bash a `key=`
 * word's candidates are the value alone (bash splits words at "="); zsh and fish get the word.
 */
export async function complete(program: Command, words: readonly string[], shell: Shell): Promise<string[]> {
  const current = words.at(-1) ?? '';
  const before = words.slice(1, -1);
  let command = program;
  const positionals: string[] = [];
  for (let i = 0; i < before.length; i++) {
    const word = before[i] as string;
    if (word.startsWith('-')) {
      const option = findOption(command, program, word);
      if (option && takesValue(option) && !word.includes('=')) i++;
      continue;
    }
    const sub = positionals.length === 0 ? command.commands.find((c) => c.name() === word || c.aliases().includes(word)) : undefined;
    if (sub) command = sub;
    else positionals.push(word);
  }
  const previous = before.at(-1);
  const valueFor = previous?.startsWith('-') && !previous.includes('=') ? findOption(command, program, previous) : undefined;
  let found: string[];
  if (valueFor && takesValue(valueFor)) found = await optionValues(valueFor, current);
  else if (current.startsWith('-')) found = optionsOf(command, program);
  else found = await positionalValues(command, positionals, current, shell);
  return found.filter((c) => c.startsWith(shell === 'bash' && current.includes('=') ? current.slice(current.indexOf('=') + 1) : current));
}

function findOption(command: Command, program: Command, word: string): Option | undefined {
  const flag = word.split('=')[0];
  return [...command.options, ...program.options].find((o) => o.long === flag || o.short === flag);
}

function optionsOf(command: Command, program: Command): string[] {
  const inherited = command === program ? [] : program.options.filter((o) => o.long !== '--version');
  const names = [...command.options, ...inherited].map((o) => o.long).filter((n): n is string => Boolean(n));
  return [...new Set([...names, '--help'])];
}

async function optionValues(option: Option, current: string): Promise<string[]> {
  if (option.argChoices) return [...option.argChoices];
  switch (option.long) {
    case '--site':
      return profiles().names;
    case '--sites': {
      const { names, groups } = profiles();
      return [...names, ...groups.map((g) => `@${g}`), 'all'];
    }
    case '--allow':
      return (await import('../registry/index.js')).tools.map((t) => t.name);
    case '--format':
      return ['table', 'json', 'csv', 'ids', 'count'];
    case '--toolkit':
      return ['taxonomy', 'users'];
    case '--toolsets':
      return toolsetWords(current);
    case '--sandbox':
    case '--name':
      return sandboxes();
    case '--journal':
      return ['off'];
    default:
      return [];
  }
}

async function positionalValues(command: Command, positionals: readonly string[], current: string, shell: Shell): Promise<string[]> {
  const subcommands = command.commands.filter((c) => !c.name().startsWith('__')).map((c) => c.name());
  const path = commandPath(command);
  if (path === 'invoke') return invokeWords(positionals, current, shell);
  if (path === 'completion') return positionals.length ? [] : [...SHELLS];
  if (path === 'sites check' || path === 'sites remove') {
    const { names, groups } = profiles();
    return [...names, ...(path === 'sites check' ? [...groups.map((g) => `@${g}`), 'all'] : [])];
  }
  if (path === 'tools') return [];
  return positionals.length ? [] : subcommands;
}

/** `invoke TOOL key=value …`: tool names, then the tool's params not given yet, then an enum's or boolean's values. */
async function invokeWords(positionals: readonly string[], current: string, shell: Shell): Promise<string[]> {
  const { tools } = await import('../registry/index.js');
  const [toolName, ...given] = positionals;
  if (toolName === undefined) return tools.map((t) => t.name);
  const tool = tools.find((t) => t.name === toolName);
  if (!tool) return [];
  const shape = tool.schema.shape as Record<string, unknown>;
  const eq = current.indexOf('=');
  if (eq > 0) {
    const key = current.slice(0, eq);
    const values = valuesOf(shape[key]);
    return shell === 'bash' ? values : values.map((v) => `${key}=${v}`);
  }
  const used = new Set(given.map((w) => w.split('=')[0]));
  return Object.keys(shape)
    .filter((k) => !used.has(k))
    .map((k) => `${k}=`);
}

type Def = { type: string; innerType?: unknown; in?: unknown; entries?: Record<string, string> };
const defOf = (s: unknown) => (s as { _zod?: { def?: Def } } | undefined)?._zod?.def;

function valuesOf(schema: unknown): string[] {
  let def = defOf(schema);
  while (def && (def.innerType || (def.type === 'pipe' && def.in))) def = defOf(def.innerType ?? def.in);
  if (def?.type === 'enum' && def.entries) return Object.values(def.entries).map(String);
  if (def?.type === 'boolean') return ['true', 'false'];
  return [];
}

/**
 * `--toolsets a,b`: the toolset names (and `all`), after the names already given in the word
 * (#60.7: `tools --toolsets <Tab>` completed nothing). The shells take the word whole, commas and all.
 */
async function toolsetWords(current: string): Promise<string[]> {
  const { TOOLSET_NAMES } = await import('../registry/toolsets.js');
  const given = current.split(',').slice(0, -1);
  const prefix = given.length ? `${given.join(',')},` : '';
  const names = TOOLSET_NAMES.filter((n) => !given.includes(n)).map((n) => `${prefix}${n}`);
  return given.length ? names : [...names, 'all'];
}

function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

function profiles(): { names: string[]; groups: string[] } {
  try {
    // The profiles file only: no site is reached at a Tab.
    const { sites } = readProfiles();
    return { names: sites.map((s) => s.name), groups: [...new Set(sites.flatMap((s) => s.groups))] };
  } catch {
    return { names: [], groups: [] };
  }
}

function sandboxes(): string[] {
  try {
    return readdirSync(sandboxHome(), { withFileTypes: true })
      .filter((e) => e.isDirectory() && e.name !== 'core')
      .map((e) => e.name);
  } catch {
    return [];
  }
}

