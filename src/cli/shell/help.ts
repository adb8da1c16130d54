import { describeTool } from '../../adapters/json-schema.js';
import type { AnyToolDefinition } from '../../registry/index.js';
import { takesNames } from '../../call/index.js';
import { renderTable } from '../render/table.js';
import { PARAM_HELP } from '../../tools/param-help.js';

type Property = { type?: string | string[]; description?: string; enum?: unknown[]; items?: Property };

/** `help TOOL`: what it does, its parameters (required first) and an example line to start from. */
export function toolHelp(tool: AnyToolDefinition, width?: number): string {
  const schema = describeTool(tool).inputSchema as { properties?: Record<string, Property>; required?: string[] };
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const names = Object.keys(properties).sort((a, b) => Number(required.has(b)) - Number(required.has(a)));
  const rows = names.map((name) => {
    const p = properties[name] ?? {};
    // A login or email where a user id goes, a slug where a term id goes (#52.1).
    const named = takesNames(tool, name);
    return [name, named ? typeName(p).replace(/integer|number/, `id|${named}`) : typeName(p), required.has(name) ? 'yes' : '', p.description ?? PARAM_HELP[name] ?? ''];
  });
  const example = [tool.name, ...names.filter((n) => required.has(n)).map((n) => `${n}=${sample(properties[n] ?? {})}`)];
  return [
    `${tool.name}: ${tool.description}`,
    rows.length ? renderTable(['param', 'type', 'required', 'about'], rows, width) : '(no parameters)',
    `example: ${example.join(' ')}`,
    'Values are JSON where they parse (12, true, "two words"), else text; @ids = the ids of the last list.',
    'A list (type …[]) takes a,b,c or one value: post_ids=181,182  term_ids=javascript  source_ids=[python,rust].',
  ].join('\n');
}

/** Parameter names of a tool, for tab completion. */
export function paramNames(tool: AnyToolDefinition): string[] {
  const schema = describeTool(tool).inputSchema as { properties?: Record<string, unknown> };
  return Object.keys(schema.properties ?? {});
}

function typeName(p: Property): string {
  if (p.enum) return p.enum.map(String).join('|');
  const type = Array.isArray(p.type) ? p.type.filter((t) => t !== 'null').join('|') : (p.type ?? 'any');
  return type === 'array' ? `${typeName(p.items ?? {})}[]` : type;
}

function sample(p: Property): string {
  if (p.enum?.length) return String(p.enum[0]);
  const type = Array.isArray(p.type) ? p.type[0] : p.type;
  if (type === 'integer' || type === 'number') return '12';
  if (type === 'boolean') return 'true';
  if (type === 'array') {
    const one = sample(p.items ?? {});
    return one === '12' ? '12,13' : one === '"text"' ? 'a,b' : one;
  }
  return '"text"';
}
