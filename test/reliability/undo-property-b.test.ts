import { undoPropertyTests } from './undo-property-suite.js';

// Issue #24's undo property (undo-property-suite.ts): the core REST path's seeds (the run's random seed among them), on a worker of its own.
undoPropertyTests('b');
