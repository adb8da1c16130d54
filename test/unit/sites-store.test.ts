import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { selectSites } from '../../src/sites/select.js';
import { withProfilesLock } from '../../src/sites/profiles-lock.js';
import { profilesPath, putProfile, readProfiles, removeProfile, writeProfiles } from '../../src/sites/store.js';

const site = (name: string, groups: string[] = []) => ({
  name,
  url: `https://${name}.example`,
  username: 'admin',
  appPassword: 'abcd efgh ijkl mnop qrst uvwx',
  groups,
});

describe('site profiles store', () => {
  it('lives in XDG_CONFIG_HOME/cms-admin/sites.json', () => {
    expect(profilesPath({ XDG_CONFIG_HOME: '/x' })).toBe('/x/cms-admin/sites.json');
    expect(profilesPath({ XDG_CONFIG_HOME: '/x', CMS_SITES_FILE: '/y.json' })).toBe('/y.json');
  });

  it('writes 0600 through a temp file and a rename: no temp file stays, a failed write leaves the old file whole', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sites-'));
    const file = path.join(dir, 'cms-admin', 'sites.json');
    putProfile(site('a'), file);
    putProfile(site('b', ['clients']), file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(path.dirname(file))).toEqual(['sites.json']);
    expect(readProfiles(file).sites.map((s) => s.name)).toEqual(['a', 'b']);
    // A profile whose JSON cannot be written (a BigInt) fails before the rename: the file stands.
    expect(() => writeProfiles({ version: 1, sites: [{ ...site('c'), groups: [10n as never] }] }, file)).toThrow();
    expect(readProfiles(file).sites.map((s) => s.name)).toEqual(['a', 'b']);
    expect(readdirSync(path.dirname(file))).toEqual(['sites.json']);
    expect(removeProfile('a', file)).toBe(true);
    expect(removeProfile('a', file)).toBe(false);
  });

  it('changes take turns under <file>.lock: a live holder is waited for (then refused, nothing written), a dead one taken over', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'sites-')), 'sites.json');
    putProfile(site('a'), file);
    // Another cms-admin, still running, in the middle of its change.
    const other = spawn('sleep', ['30']);
    try {
      writeFileSync(`${file}.lock`, String(other.pid));
      expect(() => withProfilesLock(file, () => putProfile(site('lost'), file), 200)).toThrow(/being changed by another cms-admin/);
      expect(readProfiles(file).sites.map((s) => s.name)).toEqual(['a']);
    } finally {
      other.kill();
      await new Promise((resolve) => other.once('exit', resolve));
    }
    // Its process gone (killed between its read and its rename): the lock is taken over.
    putProfile(site('b'), file);
    expect(readProfiles(file).sites.map((s) => s.name)).toEqual(['a', 'b']);
    expect(existsSync(`${file}.lock`)).toBe(false);
    // Not replacing: a profile added meanwhile by that name is kept and said, not overwritten.
    expect(putProfile({ ...site('b'), url: 'https://other.example' }, file, false)).toBe(false);
    expect(readProfiles(file).sites.find((s) => s.name === 'b')?.url).toBe('https://b.example');
  });

  it('names a damaged file instead of reading it as empty', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'sites-')), 'sites.json');
    writeFileSync(file, '{"sites": [', { mode: 0o600 });
    expect(() => readProfiles(file)).toThrow(/not valid JSON; fix or remove it/);
  });
});

describe('selectSites', () => {
  const data = { version: 1 as const, sites: [site('shop', ['clients']), site('blog'), site('news', ['clients', 'mag'])] };
  it('takes names, @groups and all, each once, in the order given (a group: the file order)', () => {
    expect(selectSites(data, 'news,shop').map((s) => s.name)).toEqual(['news', 'shop']);
    expect(selectSites(data, '@clients').map((s) => s.name)).toEqual(['shop', 'news']);
    expect(selectSites(data, 'blog,@mag,news').map((s) => s.name)).toEqual(['blog', 'news']);
    expect(selectSites(data, 'all').map((s) => s.name)).toEqual(['shop', 'blog', 'news']);
  });
  it('refuses an unknown name or group by name (invalid_config)', () => {
    expect(() => selectSites(data, 'shop,shp')).toThrow(/No site "shp".*did you mean shop/);
    expect(() => selectSites(data, '@client')).toThrow(/No group "@client".*did you mean @clients/);
    expect(() => selectSites(data, ' , ')).toThrow(/No sites given/);
  });
});
