import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { createChatModel, type ModelConfig } from '../agent/model.js';
import type { ReferenceStep } from './case-schema.js';
import type { PlaceholderResolver } from './placeholders.js';
import { referenceScript } from './reference.js';
import { ScriptedOpenAI } from './scripted-openai.js';

/** Where an eval's model comes from: a configured endpoint, or the cases' own reference trajectories. */
export interface ModelSource {
  readonly name: string;
  model(): BaseChatModel;
  /** Called before each turn with its reference (the scripted source replays it). */
  beforeTurn(reference: readonly ReferenceStep[], resolver: PlaceholderResolver): void;
  /** Why the turn did not match its reference's length, if the source can tell. */
  afterTurn(): string | undefined;
  close(): Promise<void>;
}

export const SCRIPTED = 'scripted';

/** Any OpenAI-compatible endpoint, as the chat uses it (OPENAI_API_KEY / OPENAI_BASE_URL / CMS_AGENT_MODEL). */
export function endpointSource(config: ModelConfig): ModelSource {
  return {
    name: config.model,
    model: () => createChatModel(config),
    beforeTurn: () => {},
    afterTurn: () => undefined,
    close: async () => {},
  };
}

/**
 * `--model scripted`: the real ChatOpenAI client against an in-process OpenAI-compatible server
 * on 127.0.0.1 that answers each model request with the next step of the case's reference. It
 * checks the harness, the tools and the end-state checks with no LLM.
 */
export async function scriptedSource(): Promise<ModelSource> {
  const server = await new ScriptedOpenAI().start();
  const config: ModelConfig = {
    model: 'scripted-reference',
    apiKey: 'scripted',
    baseURL: server.url,
    timeoutMs: 60_000,
  };
  return {
    name: SCRIPTED,
    model: () => createChatModel(config),
    beforeTurn(reference, resolver) {
      server.clear();
      server.script(...referenceScript(reference, resolver));
    },
    afterTurn() {
      const left = server.pending;
      server.clear();
      return left ? `the agent stopped with ${left} reference step(s) not replayed` : undefined;
    },
    close: () => server.stop(),
  };
}
