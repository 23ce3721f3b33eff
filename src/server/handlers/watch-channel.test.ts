import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CachedObject } from '../../storage/cache.ts';
import { FrameChannel, takeChannelFlush, takeOwedFrames, type ChannelMember } from './watch-channel.ts';
import { FrameQueue } from './watch-flush.ts';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const obj = (name: string) => ({ name }) as CachedObject;
const encode = (type: string, o: CachedObject) => Buffer.from(`${type} ${o.name}\n`);

/** A member as the watch handler makes one (its queue, its own frames and its part of a flush), writing to an array. */
function member(): ChannelMember & { writes: Uint8Array[]; own(frame: string): void; text(): string } {
  const queue = new FrameQueue();
  const m = {
    writes: [] as Uint8Array[],
    channelCursor: 0,
    channel: undefined as FrameChannel | undefined,
    event() {}, bookmark() {}, error() {}, end() {},
    own(frame: string) {
      takeOwedFrames(m, queue);
      queue.push(Buffer.from(frame));
    },
    takeChannel(frames: Uint8Array[], joined: Uint8Array) {
      takeChannelFlush(m, queue, frames, joined, (bytes) => m.writes.push(bytes));
    },
    text: () => m.writes.map((w) => Buffer.from(w).toString()).join(''),
  };
  return m;
}

test('members in step get the turn\'s events as one shared buffer, written once each', async () => {
  const channel = new FrameChannel(encode);
  const [a, b] = [member(), member()];
  channel.add(a);
  channel.add(b);
  channel.event('ADDED', obj('x'));
  channel.event('MODIFIED', obj('x'));
  assert.equal(a.writes.length, 0);
  await nextTurn();
  assert.equal(a.writes.length, 1);
  assert.equal(a.writes[0], b.writes[0]);
  assert.equal(a.text(), 'ADDED x\nMODIFIED x\n');
  channel.event('DELETED', obj('x'));
  await nextTurn();
  assert.equal(b.text(), 'ADDED x\nMODIFIED x\nDELETED x\n');
});

test('a member that joins during a turn gets only the events after it joined', async () => {
  const channel = new FrameChannel(encode);
  const [a, b] = [member(), member()];
  channel.add(a);
  channel.event('ADDED', obj('1'));
  channel.add(b);
  channel.event('ADDED', obj('2'));
  await nextTurn();
  assert.equal(a.text(), 'ADDED 1\nADDED 2\n');
  assert.equal(b.text(), 'ADDED 2\n');
});

test('a frame of a member\'s own comes after the channel events before it and before those after it', async () => {
  const channel = new FrameChannel(encode);
  const [a, b] = [member(), member()];
  channel.add(a);
  channel.add(b);
  channel.event('ADDED', obj('1'));
  a.own('BOOKMARK\n');
  channel.event('ADDED', obj('2'));
  await nextTurn();
  assert.equal(a.text(), 'ADDED 1\nBOOKMARK\nADDED 2\n');
  assert.equal(b.text(), 'ADDED 1\nADDED 2\n');
  assert.deepEqual(channel.owed(a), []);
});

test('a removed member gets nothing more; one that fails to write does not stop the others', async () => {
  const channel = new FrameChannel(encode);
  const [a, b, c] = [member(), member(), member()];
  for (const m of [a, b, c]) channel.add(m);
  channel.remove(a);
  assert.equal(a.channel, undefined);
  b.takeChannel = () => { throw new Error('stream gone'); };
  channel.event('ADDED', obj('1'));
  await nextTurn();
  assert.equal(a.writes.length, 0);
  assert.equal(c.text(), 'ADDED 1\n');
});
