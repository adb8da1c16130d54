import { describe, expect, it } from 'vitest';
import { allPorts } from '../helpers/ports.js';
import { instanceOptions, networkOptions, testWorkers } from '../helpers/sandboxes.js';

// The suite's own parallel layout (docs/testing.md): one sandbox instance per vitest worker.
describe('test sandbox instances', () => {
  it('one instance per worker, on consecutive ports from the first, named after the first', () => {
    const env = { CMS_SANDBOX_WP: '6.8', CMS_SANDBOX_HOME: '/tmp/home' };
    expect([1, 2, 3].map((i) => instanceOptions(i, env)).map((o) => [o.name, o.port, o.wp, o.home])).toEqual([
      ['test-68', 8899, '6.8', '/tmp/home'],
      ['test-68-w2', 8900, '6.8', '/tmp/home'],
      ['test-68-w3', 8901, '6.8', '/tmp/home'],
    ]);
    expect(instanceOptions(2, { CMS_TEST_SANDBOX: 'mine', CMS_TEST_PORT: '9100' })).toMatchObject({ name: 'mine-w2', port: 9101 });
  });

  it('your own port means one instance unless CMS_TEST_WORKERS asks for more; bad values are refused', () => {
    expect(testWorkers({ CMS_TEST_PORT: '8905' })).toBe(1);
    expect(testWorkers({ CMS_TEST_PORT: '8905', CMS_TEST_WORKERS: '3' })).toBe(3);
    expect(testWorkers({})).toBeGreaterThanOrEqual(2);
    expect(testWorkers({})).toBeLessThanOrEqual(4);
    for (const bad of ['0', '2.5', 'many', '17']) expect(() => testWorkers({ CMS_TEST_WORKERS: bad })).toThrow(/CMS_TEST_WORKERS/);
  });

  it('every port a run places stays beside its own base: sites, networks, fleets, the README and fixed ones', () => {
    for (const wp of ['7.1', '6.8', '6.1']) {
      const env = { CMS_TEST_PORT: '9101', CMS_SANDBOX_WP: wp };
      const ports = allPorts(4, wp, env);
      expect(ports.filter((p) => p < 9100 || p > 9199)).toEqual([]);
      expect(new Set(ports).size).toBe(ports.length);
      expect(networkOptions(2, env)).toMatchObject({ name: `test-net-${wp.replace('.', '')}-w2`, port: ports[5] });
      expect(networkOptions(2, { ...env, CMS_TEST_SANDBOX: 'mine' })).toMatchObject({ name: 'mine-net-w2' });
    }
    // Unset, the suite's own defaults: sites from 8899, networks 8921 …
    expect(allPorts(1, '7.1', {}).slice(0, 2)).toEqual([8899, 8921]);
  });
});
