import { GrantStore } from '../http/grants.js';
import {
  type AccessRecord,
  APPROVED_GRACE_MS,
  type CodeRecord,
  type FormRecord,
  MAX_PENDING,
  type SignInStore,
  type SignInStoreOptions,
  type StoredPending,
} from './sign-in-store.js';

/**
 * The sign-in store of one process: grants and clients in `--state-dir` (grants.ts, clients.ts:
 * their files and formats), codes, access tokens, consent forms, approved requests and rate-limit
 * windows in memory (a restart asks clients to refresh, and people to start a sign-in again).
 * Synchronous inside, so each step is atomic within the process.
 */
export function embeddedSignInStore(options: SignInStoreOptions): SignInStore {
  const grants = new GrantStore(options.stateDir, options.clients);
  const codes = new Map<string, CodeRecord>();
  const access = new Map<string, AccessRecord>();
  const forms = new Map<string, FormRecord>();
  const approved = new Map<string, { pending: StoredPending; used: boolean }>();
  const windows = new Map<string, { count: number; resetAt: number }>();
  const bounded = (map: Map<string, unknown>) => {
    if (map.size > MAX_PENDING) map.delete(map.keys().next().value as string);
  };
  return {
    kind: 'embedded',
    seal: (secret) => grants.seal(secret),
    open: (sealed) => grants.open(sealed),
    mac: (text) => grants.mac(text),
    getClient: async (id) => grants.clients.get(id),
    addClient: async (client) => grants.clients.add(client),
    markClientUsed: async (id) => grants.clients.markUsed(id),
    grant: async (id) => grants.grant(id),
    grantByRefresh: async (refreshHash) =>
      refreshHash ? grants.grants().find((grant) => grant.refreshHash === refreshHash) : undefined,
    putGrant: async (grant) => grants.putGrant(grant),
    async dropGrant(id) {
      const grant = grants.grant(id);
      if (!grant) return undefined;
      grants.dropGrant(id);
      for (const [key, item] of access) if (item.grantId === id) access.delete(key);
      return grant;
    },
    async rotateRefresh(grantId, fromHash, toHash, expiresAt) {
      const grant = grants.grant(grantId);
      if (!grant || grant.refreshHash !== fromHash) return undefined;
      const next = { ...grant, refreshHash: toHash, refreshExpiresAt: expiresAt };
      grants.putGrant(next);
      return next;
    },
    expiredGrants: async (now) => grants.grants().filter((grant) => grant.refreshExpiresAt && grant.refreshExpiresAt < now),
    putCode: async (codeHash, code) => void codes.set(codeHash, code),
    peekCode: async (codeHash) => codes.get(codeHash),
    async takeCode(codeHash) {
      const code = codes.get(codeHash);
      codes.delete(codeHash);
      return code;
    },
    putAccess: async (tokenHash, record) => void access.set(tokenHash, record),
    async access(tokenHash) {
      const record = access.get(tokenHash);
      return record && grants.grant(record.grantId) ? record : undefined;
    },
    async putForm(formHash, form) {
      forms.set(formHash, form);
      bounded(forms);
    },
    peekForm: async (formHash) => forms.get(formHash),
    async takeForm(formHash) {
      const form = forms.get(formHash);
      forms.delete(formHash);
      return form;
    },
    async putApproved(keyHash, pending) {
      approved.set(keyHash, { pending, used: false });
      bounded(approved);
    },
    async takeApproved(keyHash) {
      const entry = approved.get(keyHash);
      if (!entry) return undefined;
      if (entry.used) {
        approved.delete(keyHash);
        return { pending: entry.pending, used: true };
      }
      entry.used = true;
      return { pending: entry.pending, used: false };
    },
    async hit(key, windowMs) {
      const now = Date.now();
      const resetAt = Math.floor(now / windowMs) * windowMs + windowMs;
      const current = windows.get(key);
      const window = current && current.resetAt === resetAt ? current : { count: 0, resetAt };
      window.count += 1;
      windows.set(key, window);
      return { count: window.count, resetAt };
    },
    async sweep(now) {
      for (const map of [codes, access]) for (const [key, item] of map) if (item.expiresAt < now) map.delete(key);
      for (const [key, form] of forms) if (form.pending.expiresAt < now) forms.delete(key);
      for (const [key, { pending }] of approved) if (pending.expiresAt + APPROVED_GRACE_MS < now) approved.delete(key);
      for (const [key, window] of windows) if (window.resetAt <= now) windows.delete(key);
      grants.clients.sweep(now);
    },
    close: async () => {},
  };
}
