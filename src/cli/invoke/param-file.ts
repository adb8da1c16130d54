import { readFile } from 'node:fs/promises';
import { findTool, type ToolErrorPayload } from '../../call/index.js';

/**
 * `invoke --file [PARAM=]PATH` (#50): a param's text read from a file, so a 10,000-row CSV need
 * not be quoted into JSON. Without `PARAM=` it fills the param the tool names as its file's
 * (`fileParam`, e.g. import-users' `csv`). One rule for every tool: the CLI names none.
 */
export async function withParamFile(
  envelope: unknown,
  spec: string | undefined,
): Promise<{ ok: true; value: unknown } | { ok: false; error: ToolErrorPayload }> {
  if (spec === undefined) return { ok: true, value: envelope };
  const bad = (message: string) => ({ ok: false as const, error: { code: 'invalid_config', message } });
  if (typeof envelope !== 'object' || envelope === null || Array.isArray(envelope)) return { ok: true, value: envelope };
  const call = envelope as { tool?: unknown; params?: unknown };
  const tool = typeof call.tool === 'string' ? findTool(call.tool) : undefined;
  if (!tool) return { ok: true, value: envelope }; // the envelope's own error says it
  const named = /^([a-z_]+)=(.+)$/s.exec(spec);
  const param = named?.[1] ?? tool.fileParam;
  const path = named?.[2] ?? spec;
  if (!param)
    return bad(`--file: ${tool.name} reads no param from a file; name one as --file PARAM=PATH.`);
  if (!(param in tool.schema.shape)) return bad(`--file: ${tool.name} has no param "${param}".`);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    return bad(`--file: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}).`);
  }
  const params = typeof call.params === 'object' && call.params !== null ? call.params : {};
  return { ok: true, value: { ...call, params: { ...params, [param]: text } } };
}

/** Bulk work's progress on a terminal (stderr), one line rewritten in place; nothing on a pipe. */
export function terminalProgress(tool: string): ((done: number, total: number) => void) | undefined {
  if (!process.stderr.isTTY) return undefined;
  return (done, total) => {
    process.stderr.write(`\r${tool}: ${done}/${total}${done >= total ? '\n' : ''}`);
  };
}
