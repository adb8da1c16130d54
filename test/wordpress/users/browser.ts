import { testSite } from '../../helpers/site.js';

/**
 * A person at a browser: wp-login.php with a cookie jar, then wp-admin pages with those
 * cookies. For the attacks of the security review (issue #26) that end in wp-admin.
 */
export class Browser {
  readonly #jar = new Map<string, string>([['wordpress_test_cookie', 'WP%20Cookie%20check']]);

  async request(path: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Response> {
    const response = await fetch(`${testSite().url}${path}`, {
      method: init.method ?? (init.form ? 'POST' : 'GET'),
      redirect: 'manual',
      headers: {
        cookie: [...this.#jar].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: init.form ? new URLSearchParams(init.form) : undefined,
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      const [name, value] = [pair.slice(0, at), pair.slice(at + 1)];
      if (/expires=Thu, 01[- ]Jan[- ]1970|max-age=0/i.test(line) || value === 'deleted') this.#jar.delete(name);
      else this.#jar.set(name, value);
    }
    return response;
  }

  /** True when wp-login.php logged in (a 302 to wp-admin that sets the logged-in cookie). */
  async login(username: string, password: string): Promise<boolean> {
    const response = await this.request('/wp-login.php', {
      form: { log: username, pwd: password, 'wp-submit': 'Log In', testcookie: '1' },
    });
    await response.text();
    return (
      response.status === 302 &&
      [...this.#jar.keys()].some((k) => k.startsWith('wordpress_logged_in_')) &&
      /wp-admin/.test(response.headers.get('location') ?? '')
    );
  }

  /** Whether a wp-admin page opens (200 with its form), not a login redirect or "Sorry, you are not allowed". */
  async opens(adminPath: string): Promise<boolean> {
    const response = await this.request(`/wp-admin/${adminPath}`);
    const body = await response.text();
    return response.status === 200 && !/not allowed/i.test(body);
  }
}

/** A REST request authenticated with an application password, as any program (not the toolkit) sends it. */
export async function restAs(
  who: { username: string; appPassword: string },
  method: string,
  route: string,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  const response = await fetch(`${testSite().url}/wp-json${route}`, {
    method,
    headers: {
      authorization: `Basic ${Buffer.from(`${who.username}:${who.appPassword}`).toString('base64')}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}
