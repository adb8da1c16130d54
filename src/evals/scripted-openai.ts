import type http from 'node:http';
import { LoopbackServer, readBody } from './loopback.js';

/**
 * A small OpenAI-compatible chat server on 127.0.0.1 that answers from a script, so agent tests
 * and `cms-admin eval --model scripted` drive the real ChatOpenAI client over real HTTP (JSON
 * and SSE, tool calls split across chunks).
 */
export interface ScriptedToolCall {
  name: string;
  args: Record<string, unknown>;
}

export interface ScriptedReply {
  content?: string;
  toolCalls?: ScriptedToolCall[];
  /** Answer with this HTTP status and an OpenAI-style error instead. */
  status?: number;
}

/** A reply, or a function of the request that makes one (it may read the site first). */
export type ScriptStep = ScriptedReply | ((request: ChatRequest) => ScriptedReply | Promise<ScriptedReply>);

export interface ChatRequest {
  model: string;
  stream?: boolean;
  messages: Array<{
    role: string;
    content?: unknown;
    tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
    tool_call_id?: string;
  }>;
  tools?: Array<{ type: string; function: { name: string; description?: string; parameters?: unknown } }>;
  [key: string]: unknown;
}

export interface ScriptedOpenAIOptions {
  /** The service's rules: a request they object to gets OpenAI's 400 with the first objection. */
  rules?: (request: ChatRequest) => string[];
}

export class ScriptedOpenAI {
  readonly requests: ChatRequest[] = [];
  /** Requests the rules refused, with the message sent back. */
  readonly refused: string[] = [];
  readonly #rules: ScriptedOpenAIOptions['rules'];
  readonly rawBodies: string[] = [];
  #script: ScriptStep[] = [];
  #server: LoopbackServer | undefined;
  #callCounter = 0;
  #completionId = '';
  url = '';

  constructor(options: ScriptedOpenAIOptions = {}) {
    this.#rules = options.rules;
  }

  /** Replies for the next model requests, in order. */
  script(...steps: ScriptStep[]): this {
    this.#script.push(...steps);
    return this;
  }

  /** Drops replies the agent did not ask for. */
  clear(): void {
    this.#script = [];
  }

  get pending(): number {
    return this.#script.length;
  }

  async start(): Promise<this> {
    this.#server = await LoopbackServer.start((req, res) => void this.#handle(req, res));
    this.url = `${this.#server.origin}/v1`;
    return this;
  }

  async stop(): Promise<void> {
    await this.#server?.stop();
  }

  async #handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const body = await readBody(req);
    if (!req.url?.endsWith('/chat/completions')) {
      res.writeHead(404).end();
      return;
    }
    const request = JSON.parse(body) as ChatRequest;
    this.requests.push(request);
    this.rawBodies.push(body);
    const problem = this.#rules?.(request)[0];
    if (problem) {
      this.refused.push(problem);
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: problem, type: 'invalid_request_error', param: 'tools', code: null } }));
      return;
    }
    const reply = await this.#reply(request).catch((err: unknown) => ({
      // 400, not 5xx: the client would retry a 5xx and be served the next step.
      status: 400,
      content: `script step failed: ${err instanceof Error ? err.message : String(err)}`,
    }));
    this.#send(res, request, reply);
  }

  async #reply(request: ChatRequest): Promise<ScriptedReply> {
    const step = this.#script.shift();
    if (!step)
      return { status: 500, content: 'script exhausted: the agent made more model requests than the test expected' };
    return typeof step === 'function' ? step(request) : step;
  }

  #send(res: http.ServerResponse, request: ChatRequest, reply: ScriptedReply): void {
    if (reply.status) {
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: reply.content ?? 'scripted failure', type: 'server_error' } }));
      return;
    }
    const toolCalls = (reply.toolCalls ?? []).map((call) => ({ id: `call_${++this.#callCounter}`, ...call }));
    // Completion ids must differ: LangChain uses them as message ids, and state merges by id.
    this.#completionId = `chatcmpl-scripted-${this.requests.length}`;
    if (request.stream) this.#stream(res, request, reply.content ?? '', toolCalls);
    else this.#json(res, request, reply.content ?? '', toolCalls);
  }

  #json(
    res: http.ServerResponse,
    request: ChatRequest,
    content: string,
    toolCalls: Array<ScriptedToolCall & { id: string }>,
  ): void {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id: this.#completionId,
        object: 'chat.completion',
        created: 0,
        model: request.model,
        choices: [
          {
            index: 0,
            finish_reason: toolCalls.length ? 'tool_calls' : 'stop',
            message: {
              role: 'assistant',
              content: content || null,
              tool_calls: toolCalls.length
                ? toolCalls.map((c) => ({
                    id: c.id,
                    type: 'function',
                    function: { name: c.name, arguments: JSON.stringify(c.args) },
                  }))
                : undefined,
            },
          },
        ],
        usage: usage(request, content, toolCalls),
      }),
    );
  }

  #stream(
    res: http.ServerResponse,
    request: ChatRequest,
    content: string,
    toolCalls: Array<ScriptedToolCall & { id: string }>,
  ): void {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const send = (delta: Record<string, unknown>, finish: string | null = null) =>
      res.write(
        `data: ${JSON.stringify({ id: this.#completionId, object: 'chat.completion.chunk', created: 0, model: request.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
      );
    send({ role: 'assistant', content: '' });
    for (const piece of content.match(/.{1,7}/gs) ?? []) send({ content: piece });
    toolCalls.forEach((call, index) => {
      const args = JSON.stringify(call.args);
      const cut = Math.max(1, Math.floor(args.length / 3));
      // First chunk names the call; the arguments arrive in three pieces.
      send({
        tool_calls: [
          { index, id: call.id, type: 'function', function: { name: call.name, arguments: args.slice(0, cut) } },
        ],
      });
      send({ tool_calls: [{ index, function: { arguments: args.slice(cut, cut * 2) } }] });
      send({ tool_calls: [{ index, function: { arguments: args.slice(cut * 2) } }] });
    });
    send({}, toolCalls.length ? 'tool_calls' : 'stop');
    const streamOptions = request.stream_options as { include_usage?: boolean } | undefined;
    if (streamOptions?.include_usage) {
      res.write(
        `data: ${JSON.stringify({ id: this.#completionId, object: 'chat.completion.chunk', created: 0, model: request.model, choices: [], usage: usage(request, content, toolCalls) })}\n\n`,
      );
    }
    res.end('data: [DONE]\n\n');
  }
}

/** Rough token counts (4 characters a token) so usage reporting has numbers to carry. */
function usage(request: ChatRequest, content: string, toolCalls: ScriptedToolCall[]) {
  const prompt_tokens = Math.ceil(JSON.stringify(request.messages).length / 4);
  const completion_tokens = Math.ceil((content.length + JSON.stringify(toolCalls).length) / 4);
  return { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens };
}
