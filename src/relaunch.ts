// `capstan serve` runs in a process that reads its compiled modules from Node's compile cache. Node strips
// the types of every .ts module it loads with a WebAssembly build of a TypeScript parser (~20 MB of memory
// and ~130 ms of a first start); a module found in the compile cache needs neither. The cache must be on
// before the first .ts module loads, which is before this code runs, so the process replaces itself
// (same pid, arguments and stdio) with one that has it on. The new process's C library reads its malloc
// settings from the environment at that moment too.
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Node flags of the relaunched process: `gc` for the idle memory trim (server/memory-trim.ts). */
export const RELAUNCH_NODE_FLAGS = ['--expose-gc'];

/** Node's own default place for the compile cache (module.enableCompileCache() without a directory). */
export const COMPILE_CACHE_DIR = join(tmpdir(), 'node-compile-cache');

/**
 * The relaunched process's environment: the compile cache on, and one malloc arena unless the user chose a
 * number. glibc gives each thread that allocates (V8's compiler and collector workers, libuv's pool) an arena
 * of its own, up to 8 per core, and what a thread frees stays in its arena: a server idle after its start
 * holds ~2.5 MB less with one arena (VmRSS ~87 -> ~84.5 MB), and GETs and creates cost no measurable CPU more.
 */
export function relaunchEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { MALLOC_ARENA_MAX: '1', ...env, NODE_COMPILE_CACHE: COMPILE_CACHE_DIR };
}

/**
 * Replaces this process with one that has the compile cache on, unless it is on already, was turned off
 * (NODE_DISABLE_COMPILE_CACHE), or the platform cannot replace a process (process.execve: Linux, macOS).
 * Returns only when the process goes on as it is.
 */
export function relaunchWithCompileCache(): void {
  const env = process.env;
  if (env.NODE_COMPILE_CACHE || env.NODE_DISABLE_COMPILE_CACHE || typeof process.execve !== 'function') return;
  try {
    process.execve(process.execPath, [process.execPath, ...RELAUNCH_NODE_FLAGS, ...process.execArgv, ...process.argv.slice(1)], relaunchEnvironment(env));
  } catch {
    // The process goes on unchanged: slower to start, same behaviour.
  }
}
