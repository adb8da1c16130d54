import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { parseDocument } from 'yaml';
import type { z } from 'zod';
import { packageRoot } from '../sandbox/index.js';
import { ENABLE_TOOLSET, findTool } from '../call/index.js';
import { type EvalCase, evalCaseSchema } from './case-schema.js';
import { placeholdersIn } from './placeholders.js';

export const DEFAULT_CASES_DIR = join(packageRoot(), 'evals', 'cases');
/** Cases with `target: fleet`: they need several sites (run-fleet-case.ts), so they live apart. */
export const FLEET_CASES_DIR = join(packageRoot(), 'evals', 'fleet-cases');

const YAML_HINT = "quote values that start with {{ or hold ': ', e.g. id: '{{fixture.a.id}}'";

/** A case file that cannot be used; the message names the file and every problem in it. */
export class CaseFileError extends Error {
  override readonly name = 'CaseFileError';
}

/** Every `*.yaml` case in `dir`, sorted by file name; throws CaseFileError on the first bad file. */
export async function loadCases(dir = DEFAULT_CASES_DIR): Promise<EvalCase[]> {
  const files = (await readdir(dir)).filter((f) => /\.ya?ml$/.test(f)).sort();
  const cases: EvalCase[] = [];
  const seen = new Map<string, string>();
  for (const file of files) {
    const evalCase = parseCase(await readFile(join(dir, file), 'utf8'), file);
    const earlier = seen.get(evalCase.id);
    if (earlier) throw new CaseFileError(`${file}: id "${evalCase.id}" is already used by ${earlier}`);
    seen.set(evalCase.id, file);
    cases.push(evalCase);
  }
  return cases;
}

/** Parses and checks one case file's text; `file` names it in error messages. */
export function parseCase(text: string, file: string): EvalCase {
  // Unquoted, `key: {{…}}` is a YAML mapping, not a placeholder: say so before YAML does.
  const unquoted = text.split('\n').findIndex((line) => /^[^'"#]*(:|^\s*-)\s+\{\{/.test(line));
  if (unquoted >= 0) throw new CaseFileError(`${file}: line ${unquoted + 1}: ${YAML_HINT}`);
  const doc = parseDocument(text, { prettyErrors: true });
  if (doc.errors.length) {
    const errors = doc.errors.map((e) => e.message.split('\n')[0]).join('; ');
    throw new CaseFileError(`${file}: not valid YAML: ${errors} (${YAML_HINT})`);
  }
  const parsed = evalCaseSchema.safeParse(doc.toJS());
  if (!parsed.success) throw new CaseFileError(`${file}: ${formatIssues(parsed.error)}`);
  const problems = semanticProblems(parsed.data, file);
  if (problems.length) throw new CaseFileError(`${file}: ${problems.join('; ')}`);
  return parsed.data;
}

function formatIssues(error: z.ZodError): string {
  return flatIssues(error.issues, [])
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(top level)'}: ${issue.message}`)
    .join('; ');
}

type Issue = { path: PropertyKey[]; message: string; code?: string; errors?: Issue[][] };

/**
 * zod reports a value that fits no variant of a union (a reference step, an expected call) as
 * one "Invalid input"; the variant that came closest (fewest problems) says more.
 */
function flatIssues(issues: readonly Issue[], prefix: PropertyKey[]): Issue[] {
  return issues.flatMap((issue) => {
    const path = [...prefix, ...issue.path];
    if (issue.code !== 'invalid_union' || !issue.errors?.length) return [{ ...issue, path }];
    const closest = [...issue.errors].sort((a, b) => a.length - b.length)[0] ?? [];
    return flatIssues(closest, path);
  });
}

/** What the schema cannot say: tool names, the answer closing each reference, fixture keys. */
function semanticProblems(evalCase: EvalCase, file: string): string[] {
  const problems: string[] = [];
  const stem = basename(file).replace(/\.ya?ml$/, '');
  if (stem !== evalCase.id) problems.push(`id "${evalCase.id}" must equal the file name "${stem}"`);
  const unknownTool = (name: string, where: string) => {
    // enable-toolset is a session tool (registry/toolset-session.ts), not a registered one.
    if (!findTool(name) && name !== ENABLE_TOOLSET) problems.push(`${where}: unknown tool "${name}"`);
  };
  const checkExpect = (expect: EvalCase['expect'] | undefined, where: string) => {
    for (const call of expect?.called ?? [])
      unknownTool(typeof call === 'string' ? call : call.tool, `${where}.called`);
    for (const name of expect?.forbidden ?? []) unknownTool(name, `${where}.forbidden`);
    for (const name of Object.keys(expect?.max_calls ?? {})) unknownTool(name, `${where}.max_calls`);
  };
  checkExpect(evalCase.expect, 'expect');
  if (typeof evalCase.approvals === 'object') {
    for (const name of evalCase.approvals.deny) unknownTool(name, 'approvals.deny');
  }
  evalCase.turns.forEach((turn, t) => {
    checkExpect(turn.expect, `turns.${t}.expect`);
    turn.reference.forEach((step, s) => {
      const where = `turns.${t}.reference.${s}`;
      const last = s === turn.reference.length - 1;
      if ('answer' in step !== last) {
        problems.push(
          last ? `${where}: the reference must end with an answer step` : `${where}: an answer must be the last step`,
        );
      }
      if ('tool' in step) unknownTool(step.tool, where);
      if ('parallel' in step) for (const call of step.parallel) unknownTool(call.tool, where);
    });
  });
  const keys = new Set<string>();
  for (const list of Object.values(evalCase.fixture ?? {})) {
    for (const item of list ?? []) {
      if (typeof item !== 'object' || !('key' in item) || !item.key) continue;
      if (keys.has(item.key)) problems.push(`fixture: key "${item.key}" is used twice`);
      keys.add(item.key);
    }
  }
  try {
    for (const placeholder of placeholdersIn(evalCase)) {
      // A fleet case names one site's record as <site>_<key>.
      const onSite =
        placeholder.type === 'fixture' && evalCase.target === 'fleet' && [...keys].some((k) => placeholder.key.endsWith(`_${k}`));
      if (placeholder.type === 'fixture' && !keys.has(placeholder.key) && !onSite) {
        problems.push(
          `{{fixture.${placeholder.key}.${placeholder.field}}}: the fixture has no key "${placeholder.key}"`,
        );
      }
    }
  } catch (err) {
    problems.push((err as Error).message);
  }
  return problems;
}
