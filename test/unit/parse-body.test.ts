import { describe, expect, it } from 'vitest';
import { decodeEntities, plainText } from '../../src/client/index.js';
import { parseBody } from '../../src/client/response.js';
import { restUrl } from '../../src/client/rest-root.js';

describe('parseBody', () => {
  it('JSON after a BOM, blank lines or PHP notices is parsed, the cause named', () => {
    expect(parseBody('\uFEFF[{"id":1}]')).toEqual({ kind: 'json', value: [{ id: 1 }], leading: 'a UTF-8 byte order mark' });
    expect(parseBody('\n\n{"a":1}')).toMatchObject({ kind: 'json', value: { a: 1 }, leading: 'blank lines' });
    const notice = '<br />\n<b>Warning</b>: Undefined array key [x] in <b>/a.php</b> on line <b>3</b><br />\n';
    const parsed = parseBody(`${notice}[{"id":2,"name":"A"}]`);
    expect(parsed).toMatchObject({ kind: 'json', value: [{ id: 2, name: 'A' }] });
    expect(parsed.kind === 'json' && parsed.leading).toContain('Undefined array key [x]');
  });

  it('an HTML page is never data, even one holding JSON-looking text', () => {
    const page = '<html><head><title>Just a moment...</title></head><body>{"id": 1} [1,2]</body></html>';
    expect(parseBody(page)).toMatchObject({ kind: 'other', title: 'Just a moment...' });
    expect(parseBody('   ')).toEqual({ kind: 'empty' });
    expect(parseBody('Moved Permanently')).toMatchObject({ kind: 'other', text: 'Moved Permanently' });
  });
});

describe('decodeEntities', () => {
  it('decodes named and numeric entities exactly once', () => {
    expect(decodeEntities('A &amp; B')).toBe('A & B');
    expect(decodeEntities('&amp;amp;')).toBe('&amp;'); // a category literally named "&amp;"
    expect(decodeEntities('Caf&eacute; &#039;x&#039; &#x41;&#8211;')).toBe("Café 'x' A–");
    expect(decodeEntities('AT&T &copy 2')).toBe('AT&T &copy 2');
    expect(plainText('<strong>Error:</strong> A &amp;amp; B')).toBe('Error: A &amp; B');
  });
});

describe('restUrl', () => {
  it('pretty permalinks, plain permalinks and paths with their own query', () => {
    expect(restUrl('http://a/wp-json/', '/wp/v2/tags', { per_page: 100 })).toBe('http://a/wp-json/wp/v2/tags?per_page=100');
    expect(restUrl('http://a/blog/?rest_route=/', '/wp/v2/tags/5?_fields=id', { force: true })).toBe(
      'http://a/blog/?rest_route=%2Fwp%2Fv2%2Ftags%2F5&_fields=id&force=true',
    );
  });
});
