import { undoPropertyTests } from './undo-property-suite.js';

// Issue #24's undo property (undo-property-suite.ts): the generator, the first half of the fixed seeds and the run's random seed.
undoPropertyTests('a');
