import { undoPropertyTests } from './undo-property-suite.js';

// Issue #24's undo property (undo-property-suite.ts): the generator and the plugin path's seeds.
undoPropertyTests('a');
