import { registerInvokeCommand } from './invoke/invoke.js';
import { createProgram, runProgram } from './program.js';

/**
 * `cms-admin invoke …` (scripts and agents calling one tool at a time): the program with only its
 * own command, as main.ts registers it for `invoke`. bin.ts starts this module for `invoke`; the
 * build bundles it apart from main.js (scripts/build-bin.mjs), so Node reads and links 7 files
 * instead of some thirty chunks shared with the other commands (BENCHMARKS.md, start-up).
 */
const program = createProgram();
registerInvokeCommand(program);
runProgram(program);
