import { registerInvokeCommand } from './invoke/invoke.js';
import { createProgram, runProgram } from './program.js';

/**
 * `cms-admin invoke …` (scripts and agents calling one tool at a time): the program with only its
 * own command, as main.ts registers it for `invoke`. bin.ts starts this module for `invoke`; the
 * build makes it one file with everything invoke uses (scripts/build-bin.mjs), so Node reads and
 * links one module instead of some thirty chunks (BENCHMARKS.md, start-up).
 */
const program = createProgram();
registerInvokeCommand(program);
runProgram(program);
