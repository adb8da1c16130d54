import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tools } from '../../src/call/index.js';

/**
 * The house's floors (issue #40, AGENTS.md "Rooms and floors"): a room (a folder of src/, or a
 * file directly in it) imports only rooms on floors below its own, type-only imports included.
 * A new room gets a floor here; a file that needs a room above its own is in the wrong room.
 */
const FLOORS: readonly (readonly string[])[] = [
  ['client', 'redact', 'summary', 'config-error', 'package-root', 'plugin', 'testing'],
  ['audit', 'sandbox'],
  // Tool definitions and what they share: they know the client, never the pipeline or the engine.
  ['tools'],
  // The undo engine: reads and restores what tools declare; names no tool.
  ['undo'],
  // The change tools (list-changes, undo-change), built on the engine.
  ['changes'],
  ['registry'],
  // One call's life, for every surface: resolve, validate, review, approve, run, journal, audit.
  ['call'],
  ['config'],
  // Site profiles and fleets (#38): a context per site (config), the undo question (changes).
  ['sites'],
  ['adapters'],
  ['toolkits', 'agent', 'mcp'],
  // The chat runner's agent as a LangGraph graph (#60.2): the agent's pieces, the adapters' approvals.
  ['evals', 'index', 'langgraph'],
  ['cli'],
];

const SRC = path.resolve(import.meta.dirname, '../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

const roomOf = (file: string) => {
  const [first, ...rest] = path.relative(SRC, file).split(path.sep);
  return rest.length ? first! : first!.replace(/\.ts$/, '');
};

/** Every import between rooms: `from`, `to`, and the file that makes it. */
function roomImports(): { from: string; to: string; file: string }[] {
  const found: { from: string; to: string; file: string }[] = [];
  const spec = /(?:import|export)\s+(?:type\s+)?(?:[^'"]*?\s+from\s+)?['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;
  for (const file of sourceFiles(SRC)) {
    for (const m of readFileSync(file, 'utf8').matchAll(spec)) {
      const target = path.resolve(path.dirname(file), (m[1] ?? m[2])!);
      if (!target.startsWith(SRC)) continue;
      const [from, to] = [roomOf(file), roomOf(target)];
      if (from !== to) found.push({ from, to, file: path.relative(SRC, file) });
    }
  }
  return found;
}

describe('rooms and floors of src/', () => {
  const imports = roomImports();
  const floor = (room: string) => FLOORS.findIndex((rooms) => rooms.includes(room));

  it('every room has a floor', () => {
    const rooms = new Set(sourceFiles(SRC).map(roomOf));
    expect([...rooms].filter((room) => floor(room) < 0), 'add these rooms to FLOORS').toEqual([]);
  });

  it('no two rooms import each other, and every import goes down a floor', () => {
    const upward = imports.filter(({ from, to }) => floor(to) >= floor(from)).map((i) => `${i.file} -> ${i.to}`);
    expect(upward).toEqual([]);
    const pairs = new Set(imports.map(({ from, to }) => `${from}>${to}`));
    expect([...pairs].filter((pair) => pairs.has(pair.split('>').reverse().join('>')))).toEqual([]);
  });

  it('the MCP server lives in src/mcp/ (the CLI command and its `mcp config` aside)', () => {
    const mcpFiles = sourceFiles(SRC)
      .map((f) => path.relative(SRC, f))
      .filter((f) => /mcp/i.test(f) && !f.startsWith(`mcp${path.sep}`));
    expect(mcpFiles.sort()).toEqual([path.join('cli', 'mcp-config.ts'), path.join('cli', 'mcp.ts')]);
  });

  it('no file of the undo engine names a tool', () => {
    const named = sourceFiles(path.join(SRC, 'undo')).flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return tools
        .filter((t) => [`'${t.name}'`, `"${t.name}"`, `\`${t.name}\``].some((q) => text.includes(q)))
        .map((t) => `${path.basename(file)}: ${t.name}`);
    });
    expect(tools.length).toBeGreaterThan(30);
    expect(named).toEqual([]);
  });

  it('tools never import the call pipeline, the registry or the undo engine', () => {
    const above = imports.filter(({ from }) => from === 'tools').map(({ to }) => to);
    expect(above.length).toBeGreaterThan(0);
    for (const room of ['call', 'registry', 'undo', 'changes']) expect(above).not.toContain(room);
  });

  it('outside src/call/ the pipeline is entered through call/index.ts only', () => {
    const spec = /(?:import|export)\s+(?:type\s+)?(?:[^'"]*?\s+from\s+)?['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;
    const inside = path.join(SRC, 'call');
    const through: string[] = [];
    for (const file of sourceFiles(SRC)) {
      if (file.startsWith(inside + path.sep)) continue;
      for (const m of readFileSync(file, 'utf8').matchAll(spec)) {
        const target = path.resolve(path.dirname(file), (m[1] ?? m[2])!).replace(/\.js$/, '.ts');
        if (target.startsWith(inside + path.sep) && target !== path.join(inside, 'index.ts') && path.relative(SRC, file) !== 'index.ts') through.push(`${path.relative(SRC, file)} -> ${path.relative(SRC, target)}`);
      }
    }
    // src/index.ts (the package's entry) re-exports `invoke` from the envelope's own file.
    expect(through).toEqual([]);
  });

  it('only the operator’s own calls (cms-admin invoke, the library’s invoke()) skip the question', () => {
    const users = sourceFiles(SRC)
      .filter((file) => readFileSync(file, 'utf8').includes('OPERATORS_OWN_CALL'))
      .map((file) => path.relative(SRC, file).split(path.sep).join('/'))
      .filter((file) => !['call/decide.ts', 'call/index.ts', 'index.ts'].includes(file));
    expect(users.sort()).toEqual(['call/envelope.ts', 'cli/invoke/invoke-fleet.ts', 'cli/invoke/invoke.ts']);
  });
});

