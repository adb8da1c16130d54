import { describe, expect, it } from 'vitest';
import { planNetwork } from '../../src/sites/network.js';

const base = { url: 'https://uni.example', username: 'admin', appPassword: 'abcd efgh ijkl mnop qrst uvwx', groups: ['clients'] };

describe('a network as profiles (sites add on a network)', () => {
  it('names the main site NAME/main and the others NAME/<path>, all in @NAME, each on its own URL', () => {
    const plan = planNetwork('uni', base, [
      { id: 3, slug: 'news', url: 'https://uni.example/news' },
      { id: 1, slug: '', url: 'https://uni.example' },
      { id: 2, slug: 'sports', url: 'https://uni.example/sports' },
    ]);
    expect(plan.profiles.map((p) => [p.name, p.url, p.groups, p.network])).toEqual([
      ['uni/main', 'https://uni.example', ['uni', 'clients'], 'uni'],
      ['uni/sports', 'https://uni.example/sports', ['uni', 'clients'], 'uni'],
      ['uni/news', 'https://uni.example/news', ['uni', 'clients'], 'uni'],
    ]);
    expect(plan.skipped).toEqual([]);
  });

  it('never plans the password for another origin: subdomain and mapped sites are skipped, by name', () => {
    const plan = planNetwork('uni', base, [
      { id: 1, slug: '', url: 'https://uni.example' },
      { id: 2, slug: '', url: 'https://sports.uni.example' },
      { id: 5, slug: '', url: 'http://uni.example' },
    ]);
    expect(plan.profiles.map((p) => p.name)).toEqual(['uni/main']);
    expect(plan.skipped.map((s) => [s.name, s.site.url])).toEqual([
      ['uni/sports', 'https://sports.uni.example'],
      ['uni/uni', 'http://uni.example'],
    ]);
    expect(plan.skipped[0]?.reason).toMatch(/another origin than https:\/\/uni\.example/);
  });

  it('a name taken twice falls back to the site id', () => {
    const plan = planNetwork('uni', { ...base, url: 'https://a.example' }, [
      { id: 1, slug: '', url: 'https://a.example' },
      { id: 7, slug: 'main', url: 'https://a.example/main' },
    ]);
    expect(plan.profiles.map((p) => p.name)).toEqual(['uni/main', 'uni/7']);
  });
});
