// The message protocol between the orchestrator and its load-generating child processes: the parent
// sends { id, job }, the child answers { id, result } or { id, error }. A child exits when its parent
// goes away, so no load generator outlives the benchmark.

export interface JobMessage { id: number; job: { kind: string } & Record<string, unknown> }
export interface ReplyMessage { id: number; result?: unknown; error?: string }

export function serveJobs(handlers: Record<string, (job: any) => Promise<unknown>>): void {
  process.on('message', (msg: JobMessage) => {
    const handler = handlers[msg.job.kind];
    const reply = (r: Omit<ReplyMessage, 'id'>) => process.send?.({ id: msg.id, ...r });
    if (!handler) { reply({ error: `unknown job kind ${msg.job.kind}` }); return; }
    handler(msg.job).then(
      (result) => reply({ result }),
      (e: unknown) => reply({ error: e instanceof Error ? e.message : String(e) }),
    );
  });
  process.on('disconnect', () => process.exit(0));
}
