import { maskSecretParams } from '../../redact.js';
import type { ToolAnnotations, ToolContext } from '../define-tool.js';
import type { Ability, AbilityAnnotations } from './abilities-api.js';

/**
 * What our safety reads from what the SITE says of an ability, never from the model (#62): read-only
 * only when the site marks it `readonly: true`; destructive unless the site marks it
 * `destructive: false`, so an ability without annotations counts as destructive.
 */
export function safetyOf(annotations: AbilityAnnotations): ToolAnnotations {
  const readOnly = annotations.readonly === true;
  return { readOnly, destructive: !readOnly && annotations.destructive !== false, idempotent: annotations.idempotent === true };
}

/** Why an ability's run is journalled as one that cannot be undone. */
export const NOT_UNDOABLE =
  'a site ability: only the site knows what it changed, so cms-admin-toolkit can neither preview nor undo it';

/**
 * Text a site wrote (a label, a description, an input value) on one line of a question: controls,
 * line breaks and bidi overrides become spaces, and it is cut at `max` characters (#48: a site's
 * words cannot add lines that look like ours).
 */
export function oneLine(text: string, max = 300): string {
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]+/g, ' ').replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The site a question names: its profile name, else its address's host. */
export function siteOf(context: ToolContext): string {
  if (context.site) return context.site;
  try {
    const url = new URL(context.client.siteUrl);
    return `${url.host}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return context.client.siteUrl;
  }
}

/** The input in plain words: `title: "Blue Teapot"; status: "draft"`, nested keys dotted, secret-looking ones masked. */
export function inputWords(raw: unknown, max = 600): string {
  if (raw === undefined || raw === null) return 'no input';
  const input = maskSecretParams(raw);
  const parts: string[] = [];
  const walk = (value: unknown, path: string) => {
    if (value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length) {
      for (const [k, v] of Object.entries(value)) walk(v, path ? `${path}.${k}` : k);
      return;
    }
    const shown = Array.isArray(value) ? (value.length ? value.map((v) => JSON.stringify(v)).join(', ') : 'none') : JSON.stringify(value);
    parts.push(path ? `${path}: ${shown}` : shown);
  };
  walk(input, '');
  return oneLine(parts.join('; '), max) || 'no input';
}

/** What the site says the ability may do, in plain words. */
function effectWords(annotations: AbilityAnnotations): string {
  if (annotations.destructive === true) return 'It may delete or overwrite data: the site marks it destructive.';
  if (annotations.destructive === false) return 'The site marks it as adding, not deleting.';
  return 'The site does not say what it changes, so it is treated as one that may delete.';
}

/**
 * The question a person is asked before an ability that is not read-only runs (#62): the ability,
 * its label and description, the site, the input in plain words, what the site says it may do,
 * and plainly that this toolkit neither previews nor undoes it.
 */
export function abilityQuestion(ability: Ability, context: ToolContext, input: unknown): string {
  const description = oneLine(ability.description, 300).replace(/[.\s]+$/, '');
  return [
    `run the site's ability "${oneLine(ability.label, 80)}" (${ability.name}) on ${oneLine(siteOf(context), 120)}${description ? `: ${description}` : ''}.`,
    `With ${inputWords(input)}.`,
    effectWords(ability.annotations),
    'cms-admin-toolkit cannot preview what it will change nor undo it.',
  ].join(' ');
}
