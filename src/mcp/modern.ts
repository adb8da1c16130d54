import {
  CLIENT_CAPABILITIES_META_KEY,
  createRequestStateCodec,
  inputRequired,
  inputResponse,
  ProtocolError,
  Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import {
  type Approver,
  type Fleet,
  isFleet,
  type ToolContext,
  type ToolFilter,
  tools,
  ToolsetSession,
  unfinishedChanges,
} from '../call/index.js';
import type { McpApprovalPolicy } from './approvals.js';
import { digestOf, memoryUsedStates, newNonce, type SealedApproval, sealingKey, type UsedStates } from './request-state.js';
import { toolHandlers, type ToolHandlerOptions } from './tool-handlers.js';

/** How long a person has to answer an approval question (the sealed state's lifetime). */
const APPROVAL_TTL_SECONDS = 10 * 60;
/** tools/list's cache hint: the list changes only when the server restarts (or its toolsets do). */
const TOOLS_TTL_MS = 60_000;
const INVALID_PARAMS = -32602;

/**
 * What a 2026-07-28 server shares across its requests (a fresh `Server` serves each one): the
 * key that seals `requestState`, the states already used, the person the requests act for.
 */
export interface ModernServing {
  /** Seals and opens `requestState` (HMAC-SHA256, the SDK's codec, a key from the server's store). */
  codec: ReturnType<typeof createRequestStateCodec<SealedApproval>>;
  used: UsedStates;
  /**
   * Each person's toolsets (issue #51): a stateless server has no session to keep them in, so
   * enable-toolset's choice lives here, per person, for the life of this process.
   */
  toolsets: Map<string, ToolsetSession>;
}

export function modernServing(options: { stateDir?: string; key?: Uint8Array; used?: UsedStates } = {}): ModernServing {
  return {
    codec: createRequestStateCodec<SealedApproval>({
      key: options.key ?? sealingKey(options.stateDir),
      ttlSeconds: APPROVAL_TTL_SECONDS,
    }),
    used: options.used ?? memoryUsedStates(),
    toolsets: new Map(),
  };
}

export interface ModernServerOptions extends ToolHandlerOptions {
  approvals?: McpApprovalPolicy;
  /** Who the requests act for (a signed-in person's grant); default the context's account. */
  principal?: string;
}

/**
 * The tools over MCP 2026-07-28 (stateless: `server/discover`, `_meta` envelopes, `resultType`,
 * cache fields — all the SDK's): the same list and calls as the 2025-11-25 server
 * (`tool-handlers.ts`). A call that needs a person's approval answers `input_required` with the
 * question (the same words as every surface) and a sealed `requestState` binding the tool, its
 * arguments, the site, the review's digest, the person and an expiry; the client retries the
 * same call with the answer. The retry runs only if the review it finds now is the one asked
 * about (else it asks again); a state is used once (docs/remote-mcp.md: Approvals).
 */
export function createModernServer(
  context: ToolContext | Fleet,
  filter: ToolFilter,
  options: ModernServerOptions,
  serving: ModernServing,
): Server {
  const site = isFleet(context) ? context.sites.map((s) => s.url).join(' ') : context.client.siteUrl;
  const user =
    options.principal ?? (isFleet(context) ? context.sites.map((s) => s.username).join(' ') : context.client.username);
  const key = `${user}\n${site}`;
  let toolsets = serving.toolsets.get(key);
  if (!toolsets) {
    toolsets = new ToolsetSession(tools, isFleet(context) ? { ...filter, fleet: true } : filter);
    serving.toolsets.set(key, toolsets);
  }
  let notify: (() => Promise<void>) | undefined;
  const handlers = toolHandlers(context, filter, { ...options, toolsets, onToolsChanged: () => notify?.() });
  const policy = options.approvals ?? {};
  const server = new Server(
    { name: 'cms-admin-toolkit', version: '0.1.0' },
    {
      capabilities: { tools: { listChanged: true } },
      cacheHints: { 'tools/list': { ttlMs: TOOLS_TTL_MS, cacheScope: 'private' } },
      // Runs before the handler: a tampered, malformed or expired state is the SDK's -32602.
      requestState: { verify: serving.codec.verify },
    },
  );
  // enable-toolset: notifications/tools/list_changed on the client's subscriptions/listen
  // stream. Over stdio the SDK routes the server's own notification there; over HTTP this
  // per-request server has no stream of its own, so the HTTP leg publishes on its handler's
  // listen bus (options.onToolsChanged, modern-http.ts).
  notify = options.onToolsChanged
    ? async () => {
        await options.onToolsChanged?.();
      }
    : async () => {
        await server.sendToolListChanged();
      };
  server.setRequestHandler('tools/list', async () => ({ tools: handlers.list() }));
  server.setRequestHandler('tools/call', async (request, ctx) => {
    const name = request.params.name;
    const args = request.params.arguments;
    const state = ctx.mcpReq.requestState<SealedApproval>();
    if (typeof state === 'string') throw new ProtocolError(INVALID_PARAMS, 'Invalid or expired requestState');
    if (state) {
      if (state.tool !== name || state.args !== digestOf(args ?? {}) || state.site !== site || state.user !== user) {
        throw new ProtocolError(
          INVALID_PARAMS,
          'This requestState belongs to another call (another tool, arguments, site or person): nothing was run. Call the tool again without it.',
        );
      }
      if (!(await serving.used.use(state.nonce, Date.now() + APPROVAL_TTL_SECONDS * 1000))) {
        throw new ProtocolError(
          INVALID_PARAMS,
          `This approval was already used: a requestState answers one retry only. Nothing was run now.${await begunWith(context, name)} Call the tool again to be asked again.`,
        );
      }
    }
    let ask: { summary: string; review: string } | undefined;
    const approver: Approver = async (question) => {
      if (policy.yes || policy.approve?.includes(question.tool)) return { approved: true };
      const review = digestOf({ summary: question.summary, args: question.args, sites: question.sites });
      if (state && state.review === review) {
        const answer = inputResponse(ctx.mcpReq.inputResponses, 'approve');
        if (answer.kind === 'elicit' && answer.action === 'accept') return { approved: true };
        if (answer.kind === 'elicit')
          return { approved: false, reason: answer.action === 'decline' ? 'The person declined.' : 'The person cancelled.' };
      }
      // No answer yet, or the site changed so that the review differs from the one asked about.
      if (!canAsk(ctx)) {
        return {
          approved: false,
          unavailable: true,
          reason: `${question.tool} needs a person's approval (${question.summary}), and this MCP client cannot ask one: it did not declare the elicitation capability. Use a client that supports elicitation, or start the server with --yes or --approve ${question.tool}.`,
        };
      }
      ask = { summary: question.summary, review };
      return { approved: false, reason: 'Waiting for the person.' };
    };
    const result = await handlers.call(name, args, approver, ctx.mcpReq.signal);
    if (!ask) return result;
    const sealed: SealedApproval = { tool: name, args: digestOf(args ?? {}), site, review: ask.review, user, nonce: newNonce() };
    return inputRequired({
      inputRequests: {
        approve: inputRequired.elicit({
          mode: 'form',
          message: `Approve: ${ask.summary}?`,
          requestedSchema: { type: 'object', properties: {} },
        }),
      },
      requestState: await serving.codec.mint(sealed),
    });
  });
  return server;
}

/**
 * A used approval retried (issue #49: the server process that ran it may have died mid-call,
 * and the client retried on another replica): the changes of this tool the person began in
 * the approval's lifetime and that are not completed, so they check and undo instead of
 * writing twice. '' when there are none (or no journal, or a fleet).
 */
async function begunWith(context: ToolContext | Fleet, tool: string): Promise<string> {
  if (isFleet(context)) return '';
  const found = await unfinishedChanges(context, tool, Date.now() - APPROVAL_TTL_SECONDS * 1000).catch(() => []);
  return found
    .map(({ entry, running }) =>
      running
        ? ` Change ${entry.change_id} (${tool}, begun ${entry.at}) is still being made by another server process: list-changes shows it when it completes.`
        : ` Change ${entry.change_id} (${tool}, begun ${entry.at}) was not completed (${entry.status === 'unknown' ? 'its answer was lost' : 'the server process running it stopped'}): it may have been applied. list-changes shows it as incomplete; undo-change with change_id "${entry.change_id}" reads the site and takes back what it did.`,
    )
    .join('');
}

/** Form elicitation declared in the request's envelope (a bare `elicitation: {}` means form). */
function canAsk(ctx: ServerContext): boolean {
  const envelope = (ctx.mcpReq.envelope ?? {}) as Record<string, unknown>;
  const caps = envelope[CLIENT_CAPABILITIES_META_KEY] as { elicitation?: { form?: object; url?: object } } | undefined;
  const elicitation = caps?.elicitation;
  if (!elicitation) return false;
  return elicitation.form !== undefined || elicitation.url === undefined;
}
