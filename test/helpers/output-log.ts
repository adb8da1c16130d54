import { appendFileSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Everything the suite's code under test prints or returns — tool outcomes, CLI output, console
 * lines — is appended to one log, and every password the tests hand to a tool to a second file.
 * The global teardown (test/global-setup.ts) then checks that no secret appears in any output.
 */
function files(home = process.env.CMS_SANDBOX_HOME, name = process.env.CMS_TEST_SANDBOX) {
  if (!home || !name) return undefined;
  const dir = join(home, name);
  return { outputs: join(dir, 'test-outputs.log'), secrets: join(dir, 'test-secrets.txt') };
}

export function recordOutput(text: string): void {
  const f = files();
  if (f && text) appendFileSync(f.outputs, `${text}\n`);
}

/**
 * Values of secret-looking params (password, …) given to tools by the tests. A value built from
 * another param (a test of the rule "the password must not contain the username") is public
 * already and is left out.
 */
export function recordSecretsOf(params: unknown): void {
  const f = files();
  if (!f || !params || typeof params !== 'object') return;
  const entries = Object.entries(params);
  const others = (key: string) => entries.filter(([k, v]) => k !== key && typeof v === 'string').map(([, v]) => v as string);
  for (const [key, value] of entries) {
    if (!/pass/i.test(key) || typeof value !== 'string' || value.length < 6) continue;
    if (others(key).some((other) => other.length >= 3 && (value.includes(other) || other.includes(value)))) continue;
    appendFileSync(f.secrets, `${value}\n`, { mode: 0o600 });
  }
}

/** A secret the test came by (an OAuth token, an application password WordPress handed out): no output may show it. */
export function recordSecret(value: string | undefined): void {
  const f = files();
  if (f && value && value.length >= 6) appendFileSync(f.secrets, `${value}\n`, { mode: 0o600 });
}

export function resetOutputLog(home: string, name: string): void {
  const f = files(home, name);
  if (!f) return;
  rmSync(f.outputs, { force: true });
  rmSync(f.secrets, { force: true });
}

/**
 * Lines of the output log that contain one of the secrets; each finding names the kind of
 * secret and the line, never the secret itself.
 */
export function findLeaks(home: string, name: string, known: Record<string, string>): string[] {
  const f = files(home, name);
  if (!f || !existsSync(f.outputs)) return [];
  const secrets: Array<[string, string]> = Object.entries(known);
  if (existsSync(f.secrets)) {
    for (const value of new Set(readFileSync(f.secrets, 'utf8').split('\n').filter(Boolean))) secrets.push(['a user password given to a tool', value]);
  }
  const leaks: string[] = [];
  readFileSync(f.outputs, 'utf8')
    .split('\n')
    .forEach((line, index) => {
      for (const [kind, value] of secrets) if (value && line.includes(value)) leaks.push(`${kind} on output line ${index + 1}`);
    });
  return leaks;
}

export function outputLogSize(home: string, name: string): number {
  const f = files(home, name);
  return f && existsSync(f.outputs) ? readFileSync(f.outputs, 'utf8').length : 0;
}
