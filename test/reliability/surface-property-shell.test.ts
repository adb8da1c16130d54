import { describeSurfaceProperty } from './surface-property.js';

/** The surface property (#58; test/reliability/surface-property.ts) in the tool shell, piped and in a real terminal. */
describeSurfaceProperty('shell');
