import type { ReferenceStep } from './case-schema.js';
import type { PlaceholderResolver } from './placeholders.js';
import type { ScriptStep, ScriptedReply } from './scripted-openai.js';

/**
 * A turn's reference trajectory as replies of the scripted model server, one per model request.
 * Placeholders are resolved when the request for that step arrives, so a lookup sees what the
 * steps before it created (`{{lookup: category "Reviews"}}` after a step that created Reviews).
 */
export function referenceScript(steps: readonly ReferenceStep[], resolver: PlaceholderResolver): ScriptStep[] {
  return steps.map((step) => async (): Promise<ScriptedReply> => {
    const resolved = await resolver.resolve(step);
    if ('answer' in resolved) return { content: resolved.answer };
    const calls = 'parallel' in resolved ? resolved.parallel : [resolved];
    return { toolCalls: calls.map((call) => ({ name: call.tool, args: call.args ?? {} })) };
  });
}
