#!/usr/bin/env node
// `capstan serve`: starts the API server on the embedded store (or etcd) and stops cleanly on a signal.
// Only node: modules and the relauncher load before the relaunch; the rest is imported after it.
import { flushCompileCache } from 'node:module';
import { relaunchWithCompileCache } from './relaunch.ts';

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const { parseServeFlags, serveHelp } = await import('./config/flags.ts');
  if (command !== 'serve') {
    process.stderr.write(`usage: capstan serve [flags]\n\n${serveHelp()}\n`);
    return command === undefined || command === '--help' || command === '-h' ? 0 : 2;
  }
  let opts;
  let logLevel = 'info';
  try {
    const parsed = parseServeFlags(rest);
    if (parsed.help) { process.stdout.write(serveHelp() + '\n'); return 0; }
    logLevel = parsed.options.logLevel;
    const { serverOptionsFromFlags } = await import('./config/serve-options.ts');
    opts = await serverOptionsFromFlags(parsed.options, parsed.changed);
  } catch (err) {
    process.stderr.write(`Error: ${(err as Error).message}\n`);
    return 2;
  }
  const [{ startServer }, { default: pino }, { startMemoryTrim }] = await Promise.all([import('./server/server.ts'), import('pino'), import('./server/memory-trim.ts')]);
  // Structured JSON lines on stderr; the server's messages are operational information.
  const logger = pino({ level: logLevel, base: { component: 'capstan' } }, pino.destination(2));
  const log = (line: string) => logger.info(line);
  const server = await startServer({ ...opts, log });
  let trim: ReturnType<typeof startMemoryTrim> | undefined;
  let stopping = false;
  // Listening for the signals before saying it serves: whoever reads that line may stop it at once.
  const stopped = new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      stopping = true;
      log(`received ${signal}, shutting down`);
      trim?.stop();
      server.stop().then(resolve, (err) => { log(`shutdown failed: ${(err as Error).message}`); resolve(); });
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
  process.stdout.write(`Capstan is serving ${server.url}; admin kubeconfig: ${server.kubeconfigPath} (try: kubectl --kubeconfig ${server.kubeconfigPath} get ns)\n`);
  // What this start compiled is on disk now, not only at a clean exit.
  flushCompileCache();
  if (!stopping) trim = startMemoryTrim();
  await stopped;
  return 0;
}

if (process.argv[2] === 'serve') relaunchWithCompileCache();
main(process.argv.slice(2)).then((code) => { process.exitCode = code; }, (err) => {
  process.stderr.write(`Error: ${(err as Error)?.stack ?? err}\n`);
  process.exitCode = 1;
});
