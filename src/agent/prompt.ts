import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../package-root.js';

/** The agent's system prompt, kept as text in prompts/ so it can be read and edited as prose. */
export function loadSystemPrompt(name = 'system.txt'): string {
  return readFileSync(join(packageRoot(), 'prompts', name), 'utf8').trim();
}
