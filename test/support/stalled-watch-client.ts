// A remote client with a watch it never reads, run in a process of its own (a stalled stream and the server
// must not share an event loop for the test to mean anything). Over one HTTP/2 connection it opens the
// stalled watch and a second, reading one; over HTTP/1.1 another stalled watch. It reports on stdout, one
// JSON line per fact: {"ready":true}, {"reading":<events>}, {"stalled2":"aborted"|"end"},
// {"stalled1":{"events":n,"ended":"aborted"|"end"}} after it is told (a line on stdin) to read again.
import { request } from 'node:https';
import { createInterface } from 'node:readline';
import { fastHttp2Session } from './watch-client.ts';

const { url, ca, cert, key, path } = JSON.parse(process.env.STALLED_WATCH ?? '{}');
const say = (fact: object) => process.stdout.write(JSON.stringify(fact) + '\n');

const session = fastHttp2Session({ url, credentials: { ca, cert, key } });
const stalled2 = session.request({ ':path': path });
stalled2.pause();
stalled2.on('close', () => say({ stalled2: stalled2.rstCode ? 'aborted' : 'end' }));
stalled2.on('error', () => {});

let reading = 0;
const reader = session.request({ ':path': path });
reader.on('data', (chunk: Buffer) => {
  for (const b of chunk) if (b === 0x0a) reading++;
  say({ reading });
});

const u = new URL(path, url);
let stalled1Lines = 0;
const req = request({ host: u.hostname, port: u.port, path: u.pathname + u.search, ca, cert, key, agent: false }, (res) => {
  res.pause();
  createInterface({ input: process.stdin }).once('line', () => {
    res.on('data', (chunk: Buffer) => { for (const b of chunk) if (b === 0x0a) stalled1Lines++; });
    const done = (ended: string) => say({ stalled1: { events: stalled1Lines, ended } });
    res.on('end', () => done(res.complete ? 'end' : 'aborted'));
    res.on('error', () => done('aborted'));
    res.on('aborted', () => done('aborted'));
    res.resume();
  });
  say({ ready: true });
});
req.on('error', () => {});
req.end();
