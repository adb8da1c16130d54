import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { allPorts } from '../helpers/ports.js';

// CI (.ci/run) runs the WordPress 6.1 and 6.8 legs at the same time, after the full 7.1 run on the
// default ports. A port two of them share fails a leg with "port … is already in use" whenever a
// server is still up there (it did: a 7.1 network on 8927 against the 6.8 leg's network).
it("the CI legs' ports never meet each other's nor the 7.1 run's", () => {
  const script = readFileSync(new URL('../../.ci/run', import.meta.url), 'utf8');
  const line = /^leg_bases="([^"]+)"$/m.exec(script)?.[1];
  expect(line, '.ci/run names each leg\'s base port on a leg_bases="…" line').toBeDefined();
  const legs = (line as string).split(' ').map((leg) => leg.split(':') as [string, string]);
  expect(legs.map(([wp]) => wp).sort()).toEqual(['6.1', '6.8']);
  const runs: [string, number[]][] = [
    // The full run: default ports, up to four workers (test/helpers/workers.ts).
    ['7.1 full run', allPorts(4, '7.1', {})],
    ...legs.map(([wp, base]): [string, number[]] => [`${wp} leg`, allPorts(2, wp, { CMS_TEST_PORT: base })]),
  ];
  for (const [i, [a, pa]] of runs.entries()) {
    for (const [b, pb] of runs.slice(i + 1)) {
      expect(pa.filter((p) => pb.includes(p)), `${a} and ${b} share these ports`).toEqual([]);
    }
  }
});
