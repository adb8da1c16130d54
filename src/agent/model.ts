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

export function createChatModel(config: ModelConfig): ChatOpenAI {
  return new ChatOpenAI({
    model: config.model,
    apiKey: config.apiKey,
    configuration: config.baseURL ? { baseURL: config.baseURL } : undefined,
    streaming: true,
    streamUsage: true,
    temperature: 0,
    timeout: config.timeoutMs,
    maxRetries: 1,
  });
}

export const MODEL_HELP = `No model is configured. Set one of:
  OPENAI_API_KEY=sk-…                                  (OpenAI; model from CMS_AGENT_MODEL, default ${DEFAULT_MODEL})
  OPENAI_BASE_URL=http://127.0.0.1:11434/v1 CMS_AGENT_MODEL=qwen2.5:7b   (Ollama, vLLM, llama.cpp server: any OpenAI-compatible endpoint)`;
