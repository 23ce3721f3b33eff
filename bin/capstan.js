#!/usr/bin/env node
// The package's `capstan` command: runs the CLI on Node 24 (type stripping, node:sqlite). When the Node on
// PATH is older, it re-runs itself with the Node 24 the package installs as a dependency.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const major = Number(process.versions.node.split('.')[0]);
if (major >= 24) {
  await import(join(here, '..', 'src', 'cli.ts'));
} else {
  const require = createRequire(import.meta.url);
  const node = join(dirname(require.resolve('node/package.json')), 'bin', 'node');
  const child = spawn(node, [join(here, '..', 'src', 'cli.ts'), ...process.argv.slice(2)], { stdio: 'inherit' });
  // The server stops on the signal the command gets, and the command exits as the server did.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    }
    else process.exitCode = code ?? 1;
  });
}
