#!/usr/bin/env node
// The package's `capstan` command: runs the CLI on Node 24 (type stripping, node:sqlite). When the Node on
// PATH is older, it re-runs itself with the Node 24 the package installs as a dependency.
import { spawnSync } from 'node:child_process';
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
  const r = spawnSync(node, [join(here, '..', 'src', 'cli.ts'), ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exitCode = r.status ?? 1;
}
