import { undoPropertyTests } from './undo-property-suite.js';

// Issue #24's undo property (undo-property-suite.ts): the generator and the first half of the seeds.
undoPropertyTests('a');
