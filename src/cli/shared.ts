import type { ToolFilter } from '../tools/index.js';

export interface FilterOptions {
  readOnly?: boolean;
  allow?: string;
  toolkit?: string;
  auditLog?: string;
}

/** CLI flags → the registry filter shared by invoke, chat and mcp. */
export function filterFromOptions(options: FilterOptions): ToolFilter {
  const filter: ToolFilter = {};
  if (options.readOnly) filter.readOnly = true;
  if (options.allow)
    filter.allow = options.allow
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  if (options.toolkit) {
    if (options.toolkit !== 'taxonomy' && options.toolkit !== 'users') {
      throw new Error(`Unknown toolkit "${options.toolkit}": use taxonomy or users.`);
    }
    filter.toolkit = options.toolkit;
  }
  return filter;
}

export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
