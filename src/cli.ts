#!/usr/bin/env node
// `capstan serve`: starts the API server on the embedded store (or etcd) and stops cleanly on a signal.
import { startServer } from './server/server.ts';
import { parseServeFlags, serveHelp } from './config/flags.ts';
import { serverOptionsFromFlags } from './config/serve-options.ts';
import { pino } from 'pino';

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
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
    opts = await serverOptionsFromFlags(parsed.options, parsed.changed);
  } catch (err) {
    process.stderr.write(`Error: ${(err as Error).message}\n`);
    return 2;
  }
  // Structured JSON lines on stderr; the server's messages are operational information.
  const logger = pino({ level: logLevel, base: { component: 'capstan' } }, pino.destination(2));
  const log = (line: string) => logger.info(line);
  const server = await startServer({ ...opts, log });
  process.stdout.write(`Capstan is serving ${server.url}; admin kubeconfig: ${server.kubeconfigPath} (try: kubectl --kubeconfig ${server.kubeconfigPath} get ns)\n`);
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      log(`received ${signal}, shutting down`);
      server.stop().then(resolve, (err) => { log(`shutdown failed: ${(err as Error).message}`); resolve(); });
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
  return 0;
}

main(process.argv.slice(2)).then((code) => { process.exitCode = code; }, (err) => {
  process.stderr.write(`Error: ${(err as Error)?.stack ?? err}\n`);
  process.exitCode = 1;
});
