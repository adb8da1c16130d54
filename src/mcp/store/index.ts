import { ConfigError } from '../../config.js';
import { memoryUsedStates, sealingKey, type UsedStates } from '../request-state.js';

/**
 * Where `mcp --http` keeps what a 2026-07-28 approval round trip needs between its two requests
 * (the key that seals `requestState`, the states already used): the embedded store (the state
 * directory's key file, this process's memory), or PostgreSQL (`--store postgres://…`,
 * `CMS_STORE`), so that several server processes behind a load balancer take each other's
 * states and refuse each other's replays. docs/remote-mcp.md: Many replicas.
 */
export interface ServerStore {
  kind: 'embedded' | 'postgres';
  sealingKey(): Promise<Uint8Array>;
  used: UsedStates;
  close(): Promise<void>;
}

export function embeddedStore(stateDir?: string): ServerStore {
  return {
    kind: 'embedded',
    sealingKey: async () => sealingKey(stateDir),
    used: memoryUsedStates(),
    close: async () => {},
  };
}

/** `--store` / CMS_STORE: `embedded` (default) or a `postgres://` / `postgresql://` URL. */
export async function openStore(spec: string | undefined, stateDir?: string): Promise<ServerStore> {
  if (spec === undefined || spec === '' || spec === 'embedded') return embeddedStore(stateDir);
  if (!/^postgres(ql)?:\/\//.test(spec)) {
    throw new ConfigError('--store (CMS_STORE) takes embedded or a postgres://user@host:port/database URL.', 'invalid_config');
  }
  const { postgresStore } = await import('./postgres.js');
  return postgresStore(spec);
}
