import { z } from 'zod';
import type { WordPressClient } from '../../client/index.js';
import { ToolError } from '../tool-error.js';
import { typeOnly } from '../schema.js';
import type { TermKind } from './terms.js';

/**
 * The `meta` param of the term writes: registered term meta, as `key=value` texts (a map would be
 * an object without properties, which Gemini's schema subset and strict modes refuse; `{key,
 * value}` objects cost six tools 30 tokens each on every request). Values are text, read as the
 * key's registered type (`7` for an integer, `true` for a boolean).
 */
export const termMetaParam = () => z.array(z.string().meta(typeOnly)).optional().describe('Registered term meta: key=value');

export type MetaPairs = readonly string[];

/** `seo_title=Best news` → {key, value} (at the first `=`); a text without one is invalid_params. */
export function pairsOf(meta: MetaPairs): Array<{ key: string; value: string }> {
  const bad = meta.filter((entry) => !/^[^=]+=/.test(entry));
  if (bad.length) {
    throw new ToolError('invalid_params', `meta takes key=value texts; ${bad.map((b) => JSON.stringify(b.slice(0, 60))).join(', ')} has no key=.`, {
      hint: 'Write each as "key=value", e.g. ["seo_title=Best news"].',
    });
  }
  return meta.map((entry) => {
    const at = entry.indexOf('=');
    return { key: entry.slice(0, at).trim(), value: entry.slice(at + 1) };
  });
}

type MetaSchema = Record<string, { type?: string | string[]; description?: string }>;

/**
 * The meta keys a taxonomy's terms take over REST: those registered with register_term_meta()
 * and show_in_rest, as the collection's own schema lists them (`?_method=OPTIONS`: WordPress's
 * REST server takes the method from the query, and the client sends no OPTIONS).
 * https://developer.wordpress.org/reference/functions/register_term_meta/
 */
export async function registeredTermMeta(client: WordPressClient, kind: TermKind): Promise<MetaSchema> {
  const schema = await client.get<{ schema?: { properties?: { meta?: { properties?: MetaSchema } } } }>(kind.route, {
    _method: 'OPTIONS',
  });
  return schema.schema?.properties?.meta?.properties ?? {};
}

/**
 * Refuses meta keys the site does not register for REST, naming the ones it does: other term
 * meta belongs to its plugin (private, unvalidated), and the toolkit never writes it another way.
 */
export async function termMetaBody(
  client: WordPressClient,
  kind: TermKind,
  meta: MetaPairs | undefined,
): Promise<Record<string, unknown> | undefined> {
  if (!meta?.length) return undefined;
  const pairs = pairsOf(meta);
  const known = await registeredTermMeta(client, kind);
  const unknown = pairs.map((p) => p.key).filter((key) => !(key in known));
  if (!unknown.length) return Object.fromEntries(pairs.map((p) => [p.key, typed(p.value, known[p.key]?.type)]));
  const keys = Object.entries(known).map(([key, spec]) => `${key} (${[spec.type].flat().filter(Boolean).join('|') || 'any'})`);
  throw new ToolError(
    'meta_not_registered',
    `Term meta ${unknown.map((k) => `"${k}"`).join(', ')} is not registered for REST on ${kind.taxonomy}. ${
      keys.length ? `Writable keys: ${keys.join(', ')}.` : `No term meta of ${kind.taxonomy} is writable.`
    } Only keys a plugin registers with register_term_meta(…, show_in_rest) can be written; others are private to their plugin. Nothing was changed.`,
    { hint: 'Use one of the writable keys, or ask the plugin that owns the key to register it for REST.', details: { writable: Object.keys(known) } },
  );
}

/** The given keys of a term's REST `meta` (what a write answers with). */
export function pickMeta(raw: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const meta = raw.meta && typeof raw.meta === 'object' && !Array.isArray(raw.meta) ? (raw.meta as Record<string, unknown>) : {};
  return Object.fromEntries(keys.filter((k) => k in meta).map((k) => [k, meta[k]]));
}

/** A value as its registered type; text WordPress cannot read as that type is left for it to refuse. */
function typed(value: string, type: string | string[] | undefined): unknown {
  const types = [type].flat();
  if (types.includes('boolean') && /^(true|false|1|0)$/i.test(value.trim())) return /^(true|1)$/i.test(value.trim());
  if ((types.includes('integer') || types.includes('number')) && value.trim() !== '' && !Number.isNaN(Number(value))) return Number(value);
  return value;
}
