import { describe, expect, it } from 'vitest';
import { maskResetKeys, maskSecretParams, REDACTED, redactSecrets, secretValues } from '../../src/redact.js';
import { WordPressError } from '../../src/client/index.js';

describe('redaction', () => {
  it('replaces every occurrence of a secret, deep inside objects and arrays', () => {
    const secret = 'abcd EFGH ijkl';
    const value = { a: `x ${secret} y`, b: [{ c: secret }], d: 3, e: null };
    expect(redactSecrets(value, [secret])).toEqual({ a: `x ${REDACTED} y`, b: [{ c: REDACTED }], d: 3, e: null });
  });

  it('masks secret-looking params and lists their values', () => {
    const params = { id: 3, password: 'hunter2hunter2', name: 'Ann' };
    expect(maskSecretParams(params)).toEqual({ id: 3, password: REDACTED, name: 'Ann' });
    expect(secretValues(params)).toEqual(['hunter2hunter2']);
  });

  it('masks them nested too: a site ability’s input is one param holding its own fields (#62)', () => {
    const params = { name: 'shop/connect', input: { account: 'ann', api_token: 'tok-123456', hooks: [{ secret: 'whsec-987654' }] } };
    expect(maskSecretParams(params)).toEqual({ name: 'shop/connect', input: { account: 'ann', api_token: REDACTED, hooks: [{ secret: REDACTED }] } });
    expect(secretValues(params)).toEqual(['tok-123456', 'whsec-987654']);
  });

  it('masks reset keys in links, also HTML- or JSON-escaped, and leaves other text alone', () => {
    const link = 'http://h/wp-login.php?action=rp&key=AbC123xyz&login=ann%40x';
    expect(maskResetKeys(`go to ${link} now`)).toBe(`go to http://h/wp-login.php?action=rp&key=${REDACTED}&login=ann%40x now`);
    expect(maskResetKeys(JSON.stringify({ l: link.replace('&', '&amp;') }))).not.toContain('AbC123xyz');
    expect(maskResetKeys('{"key":"value","monkey=1"}')).toBe('{"key":"value","monkey=1"}');
  });

  it('a serialised WordPressError carries method and URL but no credentials', () => {
    const error = new WordPressError({
      status: 400,
      code: 'term_exists',
      message: 'exists',
      request: { method: 'POST', url: 'http://h/wp-json/wp/v2/tags' },
    });
    const json = JSON.stringify(error);
    expect(JSON.parse(json)).toMatchObject({ status: 400, code: 'term_exists', request: { method: 'POST' } });
    expect(json).not.toMatch(/authorization/i);
  });
});
