// The `capstan` command runs the CLI from a bundle of its sources rather than from ~300 `.ts` modules.
// The bundle skips Node's type stripping and most of its module loading, so the server idles in about
// 10 MB less memory. It is rebuilt whenever a file it was built from has changed since, so it always
// runs the sources as they are. Plain JavaScript, because the command must also start on a Node older
// than 24. Run as a script, it makes sure the bundle is fresh and prints its entry file.
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/**
 * Where the bundle goes: `dist/capstan/`, or CAPSTAN_BUNDLE_DIR (for tests). It must lie inside the package,
 * where the packages the bundle leaves out (etcd3, and those the server loads only when needed) resolve.
 */
const BUNDLE_DIR = resolve(PACKAGE_ROOT, process.env.CAPSTAN_BUNDLE_DIR || join('dist', 'capstan'));
const RECORD = 'build.json';
const CLI_SOURCE = 'src/cli.ts';
/** Files another build may still be writing or starting from are left alone this long. */
const KEEP_OLD_MS = 10 * 60 * 1000;

/**
 * The bundle's entry file when every input it was built from is unchanged since, else undefined. Inputs
 * are relative to the package root; package.json and the lockfile stand for the installed packages,
 * whose files npm stamps with a fixed old time.
 */
export function freshEntry(root = PACKAGE_ROOT, dir = BUNDLE_DIR) {
  let record;
  try {
    record = JSON.parse(readFileSync(join(dir, RECORD), 'utf8'));
  } catch {
    return undefined;
  }
  if (typeof record?.entry !== 'string' || !Array.isArray(record.inputs) || typeof record.builtAt !== 'number') return undefined;
  for (const input of record.inputs) {
    try {
      if (statSync(join(root, input)).mtimeMs > record.builtAt) return undefined;
    } catch {
      return undefined;
    }
  }
  const entry = join(dir, record.entry);
  try {
    statSync(entry);
  } catch {
    return undefined;
  }
  return entry;
}

/** Writes a file whole or not at all, so a server starting meanwhile never reads half of one. */
function writeAtomically(path, contents) {
  const temporary = `${path}.${process.pid}.tmp`;
  const fd = openSync(temporary, 'w');
  try {
    writeSync(fd, contents);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, path);
}

/**
 * Bundles `src/cli.ts` into `dir` and returns its entry file. Output names carry a hash of their
 * contents, so builds running at the same time agree on every file they share and the record names a
 * complete set. `etcd3` stays a package of its own: it reads its protocol files from beside its code.
 */
export async function build(root = PACKAGE_ROOT, dir = BUNDLE_DIR) {
  dir = resolve(root, dir);
  const { build: esbuild } = await import('esbuild');
  mkdirSync(dir, { recursive: true });
  const builtAt = fileClockNow(dir);
  const result = await esbuild({
    absWorkingDir: root,
    entryPoints: [CLI_SOURCE],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    splitting: true,
    outdir: dir,
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    external: ['etcd3'],
    // Bundled CommonJS packages call require() for Node's own modules.
    banner: { js: "import { createRequire as __capstanRequire } from 'node:module'; const require = __capstanRequire(import.meta.url);" },
    metafile: true,
    write: false,
    logLevel: 'warning',
  });
  const written = new Set([RECORD]);
  for (const file of result.outputFiles) {
    writeAtomically(file.path, file.contents);
    written.add(file.path.slice(dir.length + 1));
  }
  const [entry] = Object.entries(result.metafile.outputs).filter(([, output]) => output.entryPoint === CLI_SOURCE).map(([path]) => resolve(root, path));
  // The recipe itself is an input too: a change to it must rebuild.
  const recipe = relative(root, fileURLToPath(import.meta.url));
  const inputs = [...Object.keys(result.metafile.inputs).filter((input) => !input.includes(':')), 'package.json', 'package-lock.json', recipe];
  writeAtomically(join(dir, RECORD), JSON.stringify({ entry: entry.slice(dir.length + 1), builtAt, inputs }, null, 1));
  removeOldOutputs(dir, written);
  return entry;
}

/**
 * Now, as the file system stamps files (read from a file made for the purpose). Date.now() counts whole
 * milliseconds while file times carry fractions of one, so a source written in the millisecond a build
 * starts would look newer than the build, and the bundle stale, after it.
 */
function fileClockNow(dir) {
  const probe = join(dir, `.clock.${process.pid}`);
  closeSync(openSync(probe, 'w'));
  try {
    return statSync(probe).mtimeMs;
  } finally {
    unlinkSync(probe);
  }
}

/** Drops outputs of earlier builds once no start could still need them. */
function removeOldOutputs(dir, keep) {
  const now = Date.now();
  for (const name of readdirSync(dir)) {
    if (keep.has(name)) continue;
    const path = join(dir, name);
    try {
      if (now - statSync(path).mtimeMs > KEEP_OLD_MS) unlinkSync(path);
    } catch {
      // Removed by another build meanwhile.
    }
  }
}

/** The fresh bundle's entry, built first if needed. */
async function ensureBundle(root = PACKAGE_ROOT, dir = BUNDLE_DIR) {
  return freshEntry(root, dir) ?? build(root, dir);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.stdout.write(`${await ensureBundle()}\n`);
}
