// The live events of many JSON watch streams that select alike, queued once for all of them: each event's
// frame is appended to the channel, and at the flush every stream that is in step with the channel writes
// the same joined buffer. A stream is out of step when it joined after some of the pending frames, or has
// frames of its own (a bookmark, its initial events): it then takes the frames it is owed into its own queue
// first, so that its order stays exact.
import type { CachedObject } from '../../storage/cache.ts';
import type { WatchChannel, WatchEventType, WatchSink } from '../../registry/watch.ts';
import { flushSoon, type FrameQueue } from './watch-flush.ts';

/** A stream in a channel. */
export interface ChannelMember extends WatchSink {
  /** The channel the member is in. */
  channel?: FrameChannel;
  /** The channel's pending frames before this index were queued before the member joined, or taken by it already. */
  channelCursor: number;
  /** The flush of the channel: `frames` are the pending frames, `joined` all of them as one buffer. */
  takeChannel(frames: Uint8Array[], joined: Uint8Array): void;
}

export class FrameChannel implements WatchChannel {
  private frames: Uint8Array[] = [];
  private bytes = 0;
  private readonly members = new Set<ChannelMember>();
  private readonly encode: (type: WatchEventType, obj: CachedObject) => Uint8Array;

  constructor(encode: (type: WatchEventType, obj: CachedObject) => Uint8Array) {
    this.encode = encode;
  }

  event(type: WatchEventType, obj: CachedObject): void {
    const frame = this.encode(type, obj);
    this.frames.push(frame);
    this.bytes += frame.length;
    if (this.frames.length === 1) flushSoon(this.flush);
  }

  add(sink: WatchSink): void {
    const member = sink as ChannelMember;
    member.channel = this;
    member.channelCursor = this.frames.length;
    this.members.add(member);
  }

  remove(sink: WatchSink): void {
    const member = sink as ChannelMember;
    if (!this.members.delete(member)) return;
    member.channel = undefined;
  }

  /** The pending frames `member` has not taken yet, which it now takes (before queuing one of its own). */
  owed(member: ChannelMember): Uint8Array[] {
    const from = member.channelCursor;
    member.channelCursor = this.frames.length;
    return from < this.frames.length ? this.frames.slice(from) : [];
  }

  private readonly flush = (): void => {
    const frames = this.frames;
    if (frames.length === 0) return;
    const joined = frames.length === 1 ? frames[0] : Buffer.concat(frames, this.bytes);
    this.frames = [];
    this.bytes = 0;
    for (const member of this.members) {
      try {
        member.takeChannel(frames, joined);
      } catch {
        // One client's failed write must not hold back the others; its stream reports the error itself.
      }
      member.channelCursor = 0;
    }
  };
}

/** Before a frame of its own, a member takes the channel's frames it is owed into its queue: its order stays exact. */
export function takeOwedFrames(member: ChannelMember, queue: FrameQueue): void {
  if (!member.channel) return;
  for (const frame of member.channel.owed(member)) queue.push(frame);
}

/**
 * A member's part of a channel flush. In step with the channel (nothing of its own queued, no pending frame
 * from before it joined), it writes the shared buffer as is; else its own queue, then the frames it is owed.
 */
export function takeChannelFlush(member: ChannelMember, queue: FrameQueue, frames: Uint8Array[], joined: Uint8Array, write: (bytes: Uint8Array) => void): void {
  if (queue.length === 0 && member.channelCursor === 0) {
    write(joined);
    return;
  }
  for (let i = member.channelCursor; i < frames.length; i++) queue.push(frames[i]);
  const bytes = queue.take();
  if (bytes) write(bytes);
}
