import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findCycles, importGraph } from '../helpers/import-graph.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SRC = path.join(ROOT, 'src');

/** URLs of every module Node loads to import `entry` (run in a child process under tsx). */
function loadedModules(entry: string): string[] {
  const log = path.join(mkdtempSync(path.join(tmpdir(), 'cms-loads-')), 'loads.txt');
  execFileSync(
    process.execPath,
    ['--import', 'tsx', '--import', './test/helpers/load-recorder.mjs', '--input-type=module', '-e', `await import(${JSON.stringify(entry)});`],
    { cwd: ROOT, env: { ...process.env, CMS_LOAD_LOG: log }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  return readFileSync(log, 'utf8').split('\n').filter(Boolean);
}

const under = (urls: string[], dir: string) => urls.filter((url) => url.startsWith(`file://${dir}`));

describe('package shape', () => {
  it('the source has no import cycles, type-only and dynamic imports included', () => {
    const cycles = findCycles(importGraph(SRC)).map((cycle) => cycle.map((f) => path.relative(SRC, f)).join(' ↔ '));
    expect(cycles).toEqual([]);
  });

  it('the cycle finder finds a cycle (so the test above can fail)', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(findCycles(graph)).toEqual([['a', 'b', 'c']]);
  });

  it('importing the main entry loads no sandbox, CLI, agent or MCP module, nor their dependencies', { timeout: 90_000 }, () => {
    const loaded = loadedModules(path.join(SRC, 'index.ts'));
    expect(under(loaded, path.join(SRC, 'tools')).length).toBeGreaterThan(20);
    for (const dir of ['sandbox/', 'cli/', 'agent/', 'mcp', 'evals/']) {
      expect(under(loaded, path.join(SRC, dir)), dir).toEqual([]);
    }
    const cliOnly = ['commander', '@modelcontextprotocol', 'langchain/', '@langchain/openai', '@langchain/langgraph', 'yaml', 'fflate'];
    for (const dep of cliOnly) {
      expect(
        loaded.filter((url) => url.includes(`/node_modules/${dep}`)),
        dep,
      ).toEqual([]);
    }
  });

  it('the agent, LangGraph and MCP subpaths load their own modules', { timeout: 180_000 }, () => {
    const agent = loadedModules(path.join(SRC, 'agent/index.ts'));
    expect(under(agent, path.join(SRC, 'agent/runner.ts'))).toHaveLength(1);
    expect(under(agent, path.join(SRC, 'sandbox/'))).toEqual([]);
    // The served graph (#60.2): the agent's pieces, never the LangGraph server nor its CLI (devDependencies).
    const langgraph = loadedModules(path.join(SRC, 'langgraph/index.ts'));
    expect(under(langgraph, path.join(SRC, 'langgraph/graph.ts'))).toHaveLength(1);
    expect(under(langgraph, path.join(SRC, 'agent/toolsets.ts'))).toHaveLength(1);
    for (const server of ['@langchain/langgraph-api', '@langchain/langgraph-cli', '@langchain/langgraph-checkpoint-postgres', 'hono'])
      expect(langgraph.filter((url) => url.includes(`/node_modules/${server}/`)), server).toEqual([]);
    expect(under(langgraph, path.join(SRC, 'sandbox/'))).toEqual([]);
    const mcp = loadedModules(path.join(SRC, 'mcp/index.ts'));
    expect(mcp.some((url) => url.includes('/node_modules/@modelcontextprotocol/sdk/'))).toBe(true);
    expect(under(mcp, path.join(SRC, 'sandbox/'))).toEqual([]);
  });
});
