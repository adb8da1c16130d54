import type { IncomingMessage, ServerResponse } from 'node:http';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { metadataHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/metadata.js';
import {
  createOAuthMetadata,
  getOAuthProtectedResourceMetadataUrl,
  mcpAuthRouter,
} from '@modelcontextprotocol/sdk/server/auth/router.js';
import express from 'express';
import type { ToolContext } from '../../call/index.js';
import type { ServerStore } from '../store/server-store.js';
import type { SignInStore } from '../store/sign-in-store.js';
import { wordpressCallback } from './callback.js';
import { authorizeErrorsAsPage, issuerInResponses, plainOAuthErrors } from './oauth-errors.js';
import { TOKEN_AUTH_METHODS } from './registration.js';
import { CALLBACK_PATH, CONSENT_PATH, type WordPressAuthOptions, WordPressOAuthProvider } from './wordpress-oauth.js';

interface Handlers {
  originAllowed(req: IncomingMessage, res: ServerResponse): boolean;
  handle(req: IncomingMessage, res: ServerResponse, owner?: string): Promise<void>;
  /** A grant ended (revoked or expired): close its sessions. */
  grantEnded(grantId: string): void;
}

/**
 * The OAuth side of `mcp --http` without a static token: the SDK's router (RFC 9728 and 8414
 * metadata, registration, authorize, token, revoke), WordPress's callback, and `/mcp` behind
 * `requireBearerAuth` (401 with `resource_metadata`; a token of another resource refused).
 */
export async function signIn(
  options: WordPressAuthOptions & { contextFor(login: { username: string; appPassword: string }): ToolContext },
  base: URL,
  resource: URL,
  handlers: Handlers,
  /** Where the sign-in state lives: --state-dir and memory, or PostgreSQL (shared by replicas). */
  serverStore: ServerStore,
) {
  const store = await serverStore.signIn({ stateDir: options.stateDir, clients: options.clients });
  const provider = new WordPressOAuthProvider(options, base, resource, store);
  const contexts = new Map<string, ToolContext>();
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', false);
  if (options.rateLimit) app.use(['/authorize', '/register', '/token', '/revoke', CONSENT_PATH, CALLBACK_PATH], rateLimited(store, options.rateLimit));
  app.use(['/authorize', '/register', '/token', '/revoke'], plainOAuthErrors);
  // RFC 9207: every authorization response (a code or an error, back at the client) names us.
  app.use(['/authorize', CONSENT_PATH, CALLBACK_PATH], issuerInResponses(new URL(base).href));
  app.use('/authorize', authorizeErrorsAsPage((req, clientId) => provider.consent.consented(req, clientId)));
  // The SDK's metadata, saying exactly what our endpoints take: /token and /revoke both
  // authenticate a client with client_secret_post, or with its client_id alone (none).
  const metadata = createOAuthMetadata({ provider, issuerUrl: base });
  app.use(
    '/.well-known/oauth-authorization-server',
    metadataHandler({
      ...metadata,
      token_endpoint_auth_methods_supported: [...TOKEN_AUTH_METHODS],
      revocation_endpoint_auth_methods_supported: [...TOKEN_AUTH_METHODS],
      // Client ID Metadata Documents (the recommended registration), dynamic registration kept.
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
    }),
  );
  app.use(
    mcpAuthRouter({
      provider,
      issuerUrl: base,
      resourceServerUrl: resource,
      resourceName: 'cms-admin (WordPress)',
      // One sign-in page per person; the SDK's defaults would throttle a busy server's registrations.
      clientRegistrationOptions: { rateLimit: false },
      authorizationOptions: { rateLimit: false },
      tokenOptions: { rateLimit: false },
      revocationOptions: { rateLimit: false },
    }),
  );
  // The consent form's POST: from our own page only (Origin checked; the form's token and the
  // browser's cookie are checked in consent.ts).
  app.post(CONSENT_PATH, express.urlencoded({ extended: false, limit: '4kb' }), (req, res, next) => {
    if (handlers.originAllowed(req, res)) provider.consent.submit(req, res).catch(next);
  });
  app.get(CALLBACK_PATH, (req, res, next) => {
    wordpressCallback(provider, req, res).catch(next);
  });
  const resourceMetadata = getOAuthProtectedResourceMetadataUrl(resource);
  const bearer = requireBearerAuth({
    verifier: provider,
    resourceMetadataUrl: resourceMetadata,
    expectedResource: resource,
  });
  app.all('/mcp', (req, res, next) => {
    if (!handlers.originAllowed(req, res)) return;
    // No credentials at all: RFC 6750 §3.1 asks for no error code (the SDK would say invalid_token).
    if (req.headers.authorization === undefined) {
      res.set('WWW-Authenticate', `Bearer resource_metadata="${resourceMetadata}"`);
      res
        .status(401)
        .json({ error_description: 'sign in first: this server needs a bearer token (see resource_metadata)' });
      return;
    }
    bearer(req, res, next);
  });
  app.all('/mcp', (req, res, next) => {
    handlers.handle(req, res, req.auth?.extra?.grantId as string).catch(next);
  });
  app.use((_req: express.Request, res: express.Response) => {
    res.status(404).json({ error: 'not found: use /mcp' });
  });
  app.use((err: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    process.stderr.write(`cms-admin mcp: ${err.name}: ${err.message}\n`);
    if (!res.headersSent) res.status(500).json({ error: 'internal error' });
  });
  provider.onGrantEnded = (grantId) => {
    contexts.delete(grantId);
    handlers.grantEnded(grantId);
  };
  return {
    app: app as unknown as (req: IncomingMessage, res: ServerResponse) => void,
    provider,
    /** The tool context of a grant's person (one per grant, shared by that person's sessions). */
    async contextOf(grantId: string): Promise<ToolContext | undefined> {
      const grant = await store.grant(grantId);
      if (!grant) {
        contexts.delete(grantId); // revoked, maybe by another replica
        return undefined;
      }
      let context = contexts.get(grantId);
      if (!context) {
        context = options.contextFor({ username: grant.userLogin, appPassword: provider.store.open(grant.password) });
        contexts.set(grantId, context);
      }
      return context;
    },
  };
}

/**
 * `--rate-limit`: at most `limit` requests per fixed window from one client address to the
 * sign-in endpoints, counted in the store (with PostgreSQL, across every replica); past it 429
 * with Retry-After. The address is the connection's: behind a proxy every client shares the
 * proxy's, so set the limit for the whole proxy or limit in the proxy (docs/remote-mcp.md).
 */
function rateLimited(store: SignInStore, { limit, windowMs }: { limit: number; windowMs: number }) {
  return (req: express.Request, res: express.Response, next: express.NextFunction) => {
    store
      .hit(`sign-in ${req.socket.remoteAddress ?? ''}`, windowMs)
      .then(({ count, resetAt }) => {
        if (count <= limit) return next();
        const seconds = Math.max(1, Math.ceil((resetAt - Date.now()) / 1000));
        res.set('Retry-After', String(seconds));
        res.status(429).json({
          error: 'too_many_requests',
          error_description: `more than ${limit} sign-in requests from this address within ${Math.round(windowMs / 1000)} s: try again in ${seconds} s`,
        });
      })
      .catch(next);
  };
}
