import type { AnyToolDefinition } from '../../registry/index.js';
import { paramNames } from './help.js';

const COMMANDS = ['/help', '/tools', '/undo', '/json', '/exit', 'help'];

/**
 * node:readline's completer: the first word completes to a tool or command; after `help` to a
 * tool; after a tool to its parameter names (`name=`), leaving those already given.
 */
export function shellCompleter(offered: readonly AnyToolDefinition[] | (() => readonly AnyToolDefinition[])): (line: string) => [string[], string] {
  return (line) => {
    // The session's tools now (enable-toolset may have added some).
    const tools = typeof offered === 'function' ? offered() : offered;
    const names = tools.map((t) => t.name);
    const words = line.split(/\s+/);
    const word = words[words.length - 1] ?? '';
    if (words.length === 1) return [[...COMMANDS, ...names].filter((n) => n.startsWith(word)), word];
    if (words[0] === 'help' && words.length === 2) return [names.filter((n) => n.startsWith(word)), word];
    const tool = tools.find((t) => t.name === words[0]);
    if (!tool || word.includes('=')) return [[], word];
    const given = new Set(words.slice(1, -1).map((w) => w.split('=')[0]));
    const hits = paramNames(tool)
      .filter((n) => !given.has(n) && n.startsWith(word))
      .map((n) => `${n}=`);
    return [hits, word];
  };
}
