import type { UsedStates } from '../request-state.js';
import type { SignInStore, SignInStoreOptions } from './sign-in-store.js';

/**
 * Where `mcp --http` keeps what a 2026-07-28 approval round trip needs between its two requests
 * (the key that seals `requestState`, the states already used) and what signing people in needs
 * (sign-in-store.ts): the embedded store (the state
 * directory's key file, this process's memory), or PostgreSQL (`--store postgres://…`,
 * `CMS_STORE`), so that several server processes behind a load balancer take each other's
 * states and refuse each other's replays. docs/remote-mcp.md: Many replicas.
 */
export interface ServerStore {
  kind: 'embedded' | 'postgres';
  sealingKey(): Promise<Uint8Array>;
  used: UsedStates;
  /**
   * The sign-in state of `--auth wordpress` (clients, grants, codes, tokens, consents, rate
   * limits): `--state-dir` and memory, or PostgreSQL's tables (then `stateDir` is unused).
   */
  signIn(options: SignInStoreOptions): Promise<SignInStore>;
  close(): Promise<void>;
}

