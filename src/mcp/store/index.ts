import { ConfigError } from '../../config.js';
import { memoryUsedStates, sealingKey } from '../request-state.js';
import type { ServerStore } from './server-store.js';

export type { ServerStore };

export function embeddedStore(stateDir?: string): ServerStore {
  return {
    kind: 'embedded',
    sealingKey: async () => sealingKey(stateDir),
    used: memoryUsedStates(),
    signIn: async (options) => (await import('./sign-in-embedded.js')).embeddedSignInStore(options),
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
