/**
 * `not_configured`: something is missing; `invalid_config`: a setting's value is wrong — an
 * environment variable or a flag — and the CLI exits 2, like a bad call. Its own module so the
 * sandbox and the CLI's flag parsing can throw it without loading the client.
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(
    message: string,
    readonly code: 'not_configured' | 'invalid_config' = 'not_configured',
  ) {
    super(message);
  }
}
