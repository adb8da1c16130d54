import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseEnv } from 'node:util';

/**
 * Reads `.env` in the working directory into process.env, as `cms-admin site env >> .env` and
 * most tools expect: variables already in the environment win, a missing file is fine. Node's own
 * parser (the one behind `node --env-file`).
 */
export function loadDotEnv(path = resolve('.env'), env: NodeJS.ProcessEnv = process.env): string[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'EISDIR') return [];
    throw err;
  }
  const loaded: string[] = [];
  for (const [key, value] of Object.entries(parseEnv(text))) {
    if (env[key] !== undefined) continue;
    env[key] = value;
    loaded.push(key);
  }
  return loaded;
}
