/** `tool-name {json}` or `tool-name key=value …` → an envelope (values parsed as JSON when they can be). */
export function parseShellLine(line: string, ids: readonly (number | string)[] = []): {
  tool: string;
  params?: Record<string, unknown>;
} {
  const match = /^(\S+)\s*(.*)$/s.exec(line.trim());
  const tool = match?.[1] ?? '';
  const rest = match?.[2]?.trim() ?? '';
  if (!rest) return { tool };
  if (rest.startsWith('{')) return { tool, params: withIds(JSON.parse(rest), ids) };
  const params: Record<string, unknown> = {};
  for (const pair of rest.match(/(?:[^\s"']+|"(?:[^"\\]|\\.)*"|'[^']*')+/g) ?? []) {
    const eq = pair.indexOf('=');
    if (eq < 1) throw new Error(`"${pair}" is not key=value.`);
    const raw = pair.slice(eq + 1).replace(/^'(.*)'$/s, '$1');
    params[pair.slice(0, eq)] = raw === '@ids' ? idsOrThrow(ids) : parseValue(raw);
  }
  return { tool, params };
}

function parseValue(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** `"@ids"` as a JSON value means the same as the bare word. */
function withIds(params: Record<string, unknown>, ids: readonly (number | string)[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(params).map(([k, v]) => [k, v === '@ids' ? idsOrThrow(ids) : v]));
}

function idsOrThrow(ids: readonly (number | string)[]): Array<number | string> {
  if (!ids.length) throw new Error('@ids stands for the ids of the last list answer, and there is none yet (or it was empty).');
  return [...ids];
}
