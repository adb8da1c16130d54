#!/usr/bin/env node
import { enableCompileCache } from './compile-cache.js';

// The `cms-admin` command. Node 22.1+ keeps the compiled code of the modules it loads in a cache
// folder of this user's (compile-cache.ts), so every run after the first starts faster; older Node
// has no such function and starts as before. Must run before the entry's imports load.
enableCompileCache();
// `invoke` (one tool call, what scripts and agents start most) has an entry of its own that the
// build makes one file (invoke-main.ts); every other command, `--help` included, starts main.ts.
// A variable, so the bundler leaves the two entries (built apart) to load at run time.
const entry = process.argv[2] === 'invoke' ? './invoke-main.js' : './main.js';
await import(entry);
