import { expect, it } from 'vitest';
import { ConfigError, createContext, TaxonomyToolkit } from '../../src/index.js';

// #28 for library users: a site address without its scheme is said as such when the toolkit is
// built (it was Node's "Invalid URL", or for localhost:8888 a URL with the scheme "localhost:").
it.each(['127.0.0.1:8990', 'localhost:8888', 'notaurl', 'ftp://example.com'])('site.url %s is invalid_config', (url) => {
  const site = { url, username: 'admin', appPassword: 'x' };
  for (const build of [() => new TaxonomyToolkit({ site }), () => createContext(site)]) {
    let thrown: unknown;
    try {
      build();
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect(thrown).toMatchObject({ code: 'invalid_config', message: expect.stringContaining('https://example.com') });
  }
});
