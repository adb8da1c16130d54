import { randomBytes } from 'node:crypto';

/**
 * Collects every output of a test (results, errors, stdout, stderr, traces, log files) and the
 * secrets none of them may contain, then says which output holds which secret. Findings name
 * the secret by label, never by value, so a failing test does not print the secret either.
 */
export interface SecretFinding {
  channel: string;
  secret: string;
}

interface Output {
  channel: string;
  text: string;
  allowed: ReadonlySet<string>;
}

export class SecretScan {
  readonly #secrets = new Map<string, string>();
  readonly #outputs: Output[] = [];

  /** Registers a value that must not appear in any output; returns it. */
  secret<T extends string>(label: string, value: T): T {
    if (value.length < 6) throw new Error(`secret "${label}" is too short to search for`);
    this.#secrets.set(value, label);
    return value;
  }

  /** A fresh strong password (≥ 12 characters, many different ones), registered as a secret. */
  password(label: string): string {
    return this.secret(label, `Pw-${randomBytes(15).toString('base64url')}`);
  }

  /** An application password as people type it, without its spaces, and inside Basic auth. */
  appPassword(label: string, username: string, appPassword: string): void {
    const compact = appPassword.replace(/\s+/g, '');
    this.secret(label, appPassword);
    this.secret(`${label} (no spaces)`, compact);
    this.secret(`${label} (base64 user:pass)`, Buffer.from(`${username}:${appPassword}`).toString('base64'));
    this.secret(`${label} (base64 user:pass, no spaces)`, Buffer.from(`${username}:${compact}`).toString('base64'));
  }

  /** Adds an output: text as is, anything else as JSON. `allowed` secrets may appear in this one. */
  record(channel: string, output: unknown, allowed: readonly string[] = []): void {
    const text = typeof output === 'string' ? output : (JSON.stringify(output) ?? String(output));
    this.#outputs.push({ channel, text, allowed: new Set(allowed) });
  }

  get outputs(): number {
    return this.#outputs.length;
  }

  get bytes(): number {
    return this.#outputs.reduce((sum, o) => sum + Buffer.byteLength(o.text), 0);
  }

  get secrets(): number {
    return this.#secrets.size;
  }

  /** Channels that saw output, e.g. to check each one was exercised. */
  channels(): string[] {
    return [...new Set(this.#outputs.map((o) => o.channel.split(':')[0] ?? o.channel))];
  }

  /** Every (output, secret) pair where the secret shows, raw, JSON-escaped or URL-encoded. */
  findings(): SecretFinding[] {
    const found: SecretFinding[] = [];
    for (const output of this.#outputs) {
      for (const [value, label] of this.#secrets) {
        if (output.allowed.has(value)) continue;
        const forms = new Set([value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value)]);
        if ([...forms].some((form) => output.text.includes(form)))
          found.push({ channel: output.channel, secret: label });
      }
    }
    return found;
  }
}
