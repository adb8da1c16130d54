import type { ToolOutcome } from '../../call/index.js';
import { renderAnswer } from './answer.js';

/**
 * `invoke` in a terminal: the answer for a person. The "more:" line is the next page's
 * `invoke` command, the envelope with the cursor added.
 */
export function renderEnvelopeAnswer(text: string | undefined, outcome: ToolOutcome): string {
  let envelope: { tool?: unknown; params?: Record<string, unknown> } = {};
  try {
    envelope = text && text !== '-' ? JSON.parse(text) : {};
  } catch {}
  const tool = typeof envelope.tool === 'string' ? envelope.tool : 'tool';
  const shown = renderAnswer(tool, envelope.params, outcome, undefined, 'invoke');
  const more = /^more: .*$/m.exec(shown);
  if (!more || !outcome.ok) return shown;
  const cursor = (outcome.result as { next_cursor: string }).next_cursor;
  const next = JSON.stringify({ tool, params: { ...envelope.params, cursor } });
  return shown.replace(more[0], `more: cms-admin invoke '${next}'`);
}
