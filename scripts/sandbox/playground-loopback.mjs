// Runs WordPress Playground's CLI (argv[2] is its entry script) with its HTTP server bound to
// 127.0.0.1: the CLI listens on every interface and has no option for the address, and a sandbox
// with well-known credentials must not be reachable from the network.
import net from 'node:net';
import { pathToFileURL } from 'node:url';

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  if (typeof args[0] === 'number' && typeof args[1] !== 'string') args.splice(1, 0, '127.0.0.1');
  return listen.apply(this, args);
};
const entry = process.argv[2];
process.argv.splice(2, 1);
await import(pathToFileURL(entry).href);
