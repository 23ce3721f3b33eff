// The HTTP floor: the same requests as Capstan gets, against a server with no API logic at all.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Context } from '../lib/context.ts';
import { BENCH_DIR } from '../lib/context.ts';
import { SYSTEMS, W } from '../lib/figures.ts';
import { forkTracked, nodeArgsFrom, stopChild } from '../lib/children.ts';
import { capstanServingCert, generateServingCert, describeKeyAlgorithm, readKubeconfigFile, type Target } from '../lib/tls.ts';
import { configMapPath } from '../lib/configmap.ts';
import { autocannonFigure, h2Figure, httpCpuPerCreateFigures, putChainFigure, GET_NAMESPACE, GET_PREFIX, GET_COUNT, UPDATE_PREFIX, WATCH_NAMESPACE } from './common.ts';
import { fanOut, FANOUT_WORKLOADS } from './fanout.ts';

const WORKLOADS = [W.create, W.createServerCpu, W.createClientCpu, W.get, W.update, W.patch, W.createH2, W.getH2, ...FANOUT_WORKLOADS];

export async function floorSuite(ctx: Context): Promise<void> {
  if (!ctx.wants(...WORKLOADS)) return;
  const fromCapstan = ctx.capstanPkiDir ? capstanServingCert(ctx.capstanPkiDir) : null;
  const serving = fromCapstan ?? generateServingCert();
  if (!fromCapstan) ctx.note(`HTTP floor: no Capstan serving certificate to borrow; using a ${serving.source} certificate`);
  ctx.log(`HTTP floor: serving certificate ${describeKeyAlgorithm(serving.cert)} (${serving.source})`);
  const dir = ctx.freshDir('floor');
  writeFileSync(join(dir, 'cert.pem'), serving.cert);
  writeFileSync(join(dir, 'key.pem'), serving.key, { mode: 0o600 });
  // The client presents Capstan's admin certificate here too, so both handshakes are alike.
  const creds = ctx.capstanPkiDir ? readKubeconfigFile(join(ctx.capstanPkiDir, 'admin.kubeconfig')) : null;
  const args = ['--cert', join(dir, 'cert.pem'), '--key', join(dir, 'key.pem')];
  if (creds?.ca) { writeFileSync(join(dir, 'ca.pem'), creds.ca); args.push('--ca', join(dir, 'ca.pem')); }
  const child = forkTracked(join(BENCH_DIR, 'floor-server.ts'), args, { execArgv: nodeArgsFrom('FLOOR_NODE_ARGS'), stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.once('message', (m: { port: number }) => resolve(m.port));
      child.once('exit', (code) => reject(new Error(`floor server exited with ${code}`)));
    });
    const target: Target = { url: `https://127.0.0.1:${port}`, ca: creds?.ca, cert: creds?.cert, key: creds?.key };
    const S = SYSTEMS.floor;
    for (const c of ctx.quick ? [50] : [1, 10, 50]) await autocannonFigure(ctx, S, W.get, target, c, { type: 'get-random', namespace: GET_NAMESPACE, namePrefix: GET_PREFIX, count: GET_COUNT });
    if (!ctx.quick) {
      for (const c of [1, 10, 50]) await autocannonFigure(ctx, S, W.create, target, c, { type: 'create-generated', namespace: 'default' });
      await httpCpuPerCreateFigures(ctx, S, [child.pid!], target);
      await putChainFigure(ctx, S, target, 'default', UPDATE_PREFIX);
      await autocannonFigure(ctx, S, W.patch, target, 50, { type: 'patch-random', namespace: GET_NAMESPACE, namePrefix: GET_PREFIX, count: GET_COUNT });
      await h2Figure(ctx, S, W.createH2, target, { type: 'create-generated', namespace: 'default' });
      await h2Figure(ctx, S, W.getH2, target, { type: 'get-random', namespace: GET_NAMESPACE, namePrefix: GET_PREFIX, count: GET_COUNT });
    }
    // The floor stores nothing: its watches start now, and each of the writer's patches is one event.
    if (ctx.wants(...FANOUT_WORKLOADS)) await fanOut(ctx, S, target, `${configMapPath(WATCH_NAMESPACE)}?watch=1`, child.pid);
  } finally {
    await stopChild(child);
  }
}
