import { undoPropertyTests } from './undo-property-suite.js';

// Issue #24's undo property (undo-property-suite.ts): the other half of the fixed seeds, on a worker of its own.
undoPropertyTests('b');
