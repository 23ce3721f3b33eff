// Capstan as a library: start a real API server inside another program (tests of controllers, operators).
export { startServer } from './server/server.ts';
export type { ServerOptions, RunningServer } from './server/server.ts';
