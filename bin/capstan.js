#!/usr/bin/env node
// The package's `capstan` command: runs the CLI on Node 24 (node:sqlite), from the bundle of its sources
// (bin/bundle.js), built first when a source has changed since the last build. When the Node on PATH is
// older, it re-runs the CLI with the Node 24 the package installs as a dependency.
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freshEntry, PACKAGE_ROOT } from './bundle.js';

/**
 * The bundle's entry. A stale bundle is rebuilt in a child process, so the builder never stays in the
 * server's memory; if it cannot be built (a read-only install, say), the sources run instead.
 */
function entry() {
  const fresh = freshEntry();
  if (fresh) return fresh;
  const builder = fileURLToPath(new URL('bundle.js', import.meta.url));
  const built = spawnSync(process.execPath, [builder], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  if (built.status === 0) return built.stdout.trim();
  process.stderr.write('capstan: could not build the bundle (above); running the sources instead\n');
  return join(PACKAGE_ROOT, 'src', 'cli.ts');
}

const cli = entry();
const major = Number(process.versions.node.split('.')[0]);
if (major >= 24) {
  // The script this process runs is the entry now. The CLI re-executes its process once to turn Node's
  // compile cache on (src/relaunch.ts); with this it re-executes the entry, not this command, so the
  // check above is not run again in the server's process, where its work would stay in memory.
  process.argv[1] = cli;
  await import(cli);
} else {
  const require = createRequire(import.meta.url);
  const node = join(dirname(require.resolve('node/package.json')), 'bin', 'node');
  const child = spawn(node, [cli, ...process.argv.slice(2)], { stdio: 'inherit' });
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
