import { unique } from './site.js';
import type { SurfaceFixture } from './surface-fixtures.js';

/**
 * The surface property's call of the abilities toolset (#62): run-ability on the sandbox's additive
 * ability (scripts/sandbox/sandbox-abilities.php), which asks a person on every surface; declined,
 * no product of that title may exist (read straight from WordPress). On WordPress before 6.9 every
 * surface refuses it alike (abilities_unavailable), asking no one.
 */
export const ABILITY_FIXTURES: Record<string, SurfaceFixture> = {
  'run-ability': {
    async make() {
      const title = unique('Surface ability product');
      return { ids: { name: 'cms-sandbox/product-create', input: { title, status: 'draft' } }, watch: { productTitles: [title] } };
    },
  },
};
