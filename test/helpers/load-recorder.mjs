// `node --import tsx --import ./test/helpers/load-recorder.mjs …`: appends the URL of every module
// Node loads to the file named by CMS_LOAD_LOG (see load-recorder-hooks.mjs). Registered after
// tsx, so its hooks see resolved URLs (src/….ts, node_modules/…).
import { register } from 'node:module';

register('./load-recorder-hooks.mjs', import.meta.url);
