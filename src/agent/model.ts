import { ChatOpenAI } from '@langchain/openai';
import { ConfigError, numberFromEnv } from '../config.js';

export const DEFAULT_MODEL = 'gpt-4.1-mini';

export interface ModelConfig {
  model: string;
  apiKey: string;
  baseURL: string | undefined;
  timeoutMs: number;
}

/**
 * The chat model comes from env: any OpenAI-compatible endpoint (OpenAI, Ollama, vLLM,
 * llama.cpp server). Local servers need no key, but the OpenAI client requires one: a dummy
 * value is used when only OPENAI_BASE_URL is set. Returns undefined when nothing is configured.
 */
export function modelConfigFromEnv(env: NodeJS.ProcessEnv = process.env): ModelConfig | undefined {
  const apiKey = env.OPENAI_API_KEY;
  const baseURL = env.OPENAI_BASE_URL || undefined;
  if (!apiKey && !baseURL) return undefined;
  if (baseURL !== undefined && !/^https?:\/\/[^/\s]/i.test(baseURL)) {
    // Else the first model request fails with "Invalid URL", after the site was already reached.
    throw new ConfigError(
      `OPENAI_BASE_URL "${baseURL}" is not an http(s) address, e.g. OPENAI_BASE_URL=http://127.0.0.1:11434/v1.`,
      'invalid_config',
    );
  }
  const timeout = numberFromEnv('CMS_AGENT_TIMEOUT_MS', 1, env);
  return {
    model: env.CMS_AGENT_MODEL || DEFAULT_MODEL,
    apiKey: apiKey || 'not-needed',
    baseURL,
    timeoutMs: timeout ?? 120_000,
  };
}

/**
 * `streaming: false` for graphs run by LangGraph (langgraph/graph.ts): ChatOpenAI then streams only
 * when a caller streams (LangGraph's `messages` mode, what its server and Agent Chat UI use), and a
 * plain `invoke()` asks for one answer — a streaming ChatOpenAI's `invoke()` counts the tokens
 * with tiktoken's ranks, which it first downloads from the internet (hanging without it).
 * (`streaming: false` said to ChatOpenAI itself would turn streaming off even for `messages`.)
 */
export function createChatModel(config: ModelConfig, options: { streaming?: boolean } = {}): ChatOpenAI {
  return new ChatOpenAI({
    model: config.model,
    apiKey: config.apiKey,
    configuration: config.baseURL ? { baseURL: config.baseURL } : undefined,
    ...(options.streaming === false ? {} : { streaming: true }),
    streamUsage: true,
    temperature: 0,
    timeout: config.timeoutMs,
    maxRetries: 1,
  });
}

export const MODEL_HELP = `No model is configured. Set one of:
  OPENAI_API_KEY=sk-…                                  (OpenAI; model from CMS_AGENT_MODEL, default ${DEFAULT_MODEL})
  OPENAI_BASE_URL=http://127.0.0.1:11434/v1 CMS_AGENT_MODEL=qwen2.5:7b   (Ollama, vLLM, llama.cpp server: any OpenAI-compatible endpoint)`;
