#!/usr/bin/env node
import module from 'node:module';

// The `cms-admin` command. Node 22.1+ keeps the compiled code of the modules it loads in its
// cache folder (os.tmpdir()/node-compile-cache), so every run after the first starts faster;
// older Node has no such function and starts as before. Must run before main's imports load.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
await import('./main.js');
