import type http from 'node:http';
import { LoopbackServer, readBody } from '../../src/evals/loopback.js';
import type { ScriptedToolCall } from '../../src/evals/scripted-openai.js';

/**
 * The shared part of the test-only provider servers (Responses API, Anthropic Messages): a
 * server on 127.0.0.1 (port 0) that checks each request against the provider's rules — a
 * request the real service would refuse gets the service's 400 — and otherwise answers the next
 * scripted step in the provider's wire format. JSON only, no SSE: drive it with `invoke`
 * (createAgent's invoke does not stream), not ChatSession's streamed turns.
 */
export interface ProviderReply {
  content?: string;
  toolCalls?: ScriptedToolCall[];
}
export type ProviderRequest = Record<string, unknown>;
export type ProviderStep = ProviderReply | ((request: ProviderRequest) => ProviderReply);

export abstract class ScriptedProvider {
  readonly requests: ProviderRequest[] = [];
  /** Requests refused under the provider's rules, with the message sent back. */
  readonly refused: string[] = [];
  #script: ProviderStep[] = [];
  #server: LoopbackServer | undefined;
  protected counter = 0;
  url = '';

  protected abstract readonly path: string;
  /** The provider's objections to a request; [] when the real service would accept it. */
  protected abstract problems(request: ProviderRequest): string[];
  protected abstract errorBody(message: string): unknown;
  protected abstract replyBody(request: ProviderRequest, reply: ProviderReply): unknown;

  script(...steps: ProviderStep[]): this {
    this.#script.push(...steps);
    return this;
  }

  /** Drops replies the agent did not ask for. */
  clear(): void {
    this.#script = [];
  }

  async start(): Promise<this> {
    this.#server = await LoopbackServer.start((req, res) => void this.#handle(req, res));
    this.url = this.#server.origin;
    return this;
  }

  async stop(): Promise<void> {
    await this.#server?.stop();
  }

  async #handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const body = await readBody(req);
    const send = (status: number, payload: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
    };
    if (!req.url?.split('?')[0]?.endsWith(this.path)) return send(404, this.errorBody(`no route ${req.url}`));
    const request = JSON.parse(body) as ProviderRequest;
    this.requests.push(request);
    const problems = this.problems(request);
    if (problems.length) {
      this.refused.push(problems[0]!);
      return send(400, this.errorBody(problems[0]!));
    }
    const step = this.#script.shift();
    if (!step) return send(400, this.errorBody('script exhausted: more model requests than the test expected'));
    try {
      send(200, this.replyBody(request, typeof step === 'function' ? step(request) : step));
    } catch (err) {
      send(400, this.errorBody(`script step failed: ${err instanceof Error ? err.message : String(err)}`));
    }
  }
}
