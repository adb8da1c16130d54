import { readFileSync } from 'node:fs';

/** One shell command of README.md, in order, with the `# {…}` answers printed under it. */
export interface ReadmeCommand {
  line: string;
  /** README lines `# {json}` right after the command: what it prints (`…` stands for anything). */
  prints: string[];
}

/** Every command of the README's ```sh blocks (comments after a command kept as its `prints`). */
export function readmeCommands(file: string): ReadmeCommand[] {
  const text = readFileSync(file, 'utf8');
  const commands: ReadmeCommand[] = [];
  for (const block of text.matchAll(/^```sh\n([\s\S]*?)^```$/gm)) {
    for (const raw of (block[1] ?? '').replace(/\\\n\s*/g, ' ').split('\n')) {
      const line = raw.trim();
      if (!line) continue;
      const last = commands[commands.length - 1];
      if (line.startsWith('# ')) {
        if (line.startsWith('# {') && last) last.prints.push(line.slice(2));
        continue;
      }
      commands.push({ line, prints: [] });
    }
  }
  return commands;
}

/** A `prints` line as a pattern: literal, with `…` matching anything. */
export function printedPattern(expected: string): RegExp {
  const parts = expected.split('…').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(parts.join('.*?'));
}
