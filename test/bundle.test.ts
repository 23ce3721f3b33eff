// The `capstan` command runs the CLI from a bundle (bin/bundle.js): built when missing, rebuilt when a
// file it was built from changes, and the real server runs from it, on the embedded store and on etcd.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// @ts-expect-error: plain JavaScript without declarations, so that the command starts on any Node.
import { build, freshEntry, PACKAGE_ROOT } from '../bin/bundle.js';
import { serveProcess } from './support/serve-process.ts';
import { startEtcd } from './support/etcd-process.ts';

const BIN = join(import.meta.dirname, '..', 'bin', 'capstan.js');
const buildBundle = build as (root: string, dir: string) => Promise<string>;
const fresh = freshEntry as (root?: string, dir?: string) => string | undefined;

/** A package of two modules whose CLI prints one word. */
async function tinyPackage(word: string): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'capstan-bundle-'));
  await mkdir(join(root, 'src'));
  await writeFile(join(root, 'package.json'), '{"type":"module"}');
  await writeFile(join(root, 'package-lock.json'), '{}');
  await writeFile(join(root, 'src', 'cli.ts'), "import { word } from './word.ts';\nconst shout: (s: string) => string = (s) => s.toUpperCase();\nconsole.log(shout(word));\n");
  await writeFile(join(root, 'src', 'word.ts'), `export const word: string = '${word}';\n`);
  return root;
}

const run = (entry: string) => execFileSync(process.execPath, [entry], { encoding: 'utf8' }).trim();

describe('the bundle', () => {
  const roots: string[] = [];
  after(async () => { for (const root of roots) await rm(root, { recursive: true, force: true }); });

  it('is stale until built, fresh after, and stale again when any of its inputs changes', async () => {
    const root = await tinyPackage('one');
    roots.push(root);
    const dir = join(root, 'dist');
    assert.equal(fresh(root, dir), undefined, 'nothing built yet');
    const first = await buildBundle(root, dir);
    assert.equal(run(first), 'ONE');
    assert.equal(fresh(root, dir), first);

    await writeFile(join(root, 'src', 'word.ts'), "export const word: string = 'two';\n");
    assert.equal(fresh(root, dir), undefined, 'a changed source');
    const second = await buildBundle(root, dir);
    assert.notEqual(second, first);
    assert.equal(run(second), 'TWO');
    assert.equal(fresh(root, dir), second);
    assert.ok(existsSync(first), 'a recent build\'s files stay for servers still starting from them');

    await writeFile(join(root, 'package-lock.json'), '{"lockfileVersion": 3}');
    assert.equal(fresh(root, dir), undefined, 'changed packages');
    await buildBundle(root, dir);
    await rm(join(root, 'src', 'word.ts'));
    assert.equal(fresh(root, dir), undefined, 'a source gone');
  });

  it('is not fresh without a complete build record', async () => {
    const root = await tinyPackage('one');
    roots.push(root);
    const dir = join(root, 'dist');
    const entry = await buildBundle(root, dir);
    await rm(entry);
    assert.equal(fresh(root, dir), undefined, 'its entry file gone');
    await buildBundle(root, dir);
    await writeFile(join(dir, 'build.json'), '{"entry": 1}');
    assert.equal(fresh(root, dir), undefined, 'a damaged record');
  });

  it('is what the capstan command runs: on etcd, kubectl creates and reads back through it', async () => {
    const etcd = await startEtcd();
    const dataDir = await mkdtemp(join(tmpdir(), 'capstan-bundle-serve-'));
    await mkdir(join(PACKAGE_ROOT, 'dist'), { recursive: true });
    const bundleDir = await mkdtemp(join(PACKAGE_ROOT, 'dist', 'test-'));
    roots.push(dataDir, bundleDir);
    try {
      const { child, exited } = await serveProcess(dataDir, { script: BIN, args: ['--etcd-servers', etcd.endpoints.join(',')], env: { CAPSTAN_BUNDLE_DIR: bundleDir } });
      try {
        assert.ok(fresh(PACKAGE_ROOT, bundleDir), 'the command built the bundle it runs');
        const kubectl = (...args: string[]) => execFileSync('kubectl', ['--kubeconfig', join(dataDir, 'admin.kubeconfig'), ...args], { encoding: 'utf8' });
        kubectl('create', 'configmap', 'from-bundle', '--from-literal=a=1');
        assert.equal(kubectl('get', 'configmap', 'from-bundle', '-o', 'jsonpath={.data.a}'), '1');
      } finally {
        child.kill('SIGTERM');
        assert.equal(await exited, 0);
      }
    } finally {
      await etcd.stop();
    }
  });
});
