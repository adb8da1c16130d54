import { undoPropertyTests } from './undo-property-suite.js';

// Issue #24's undo property (undo-property-suite.ts): the second half of the seeds, on a worker of its own.
undoPropertyTests('b');
