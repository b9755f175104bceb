import type { JsMsg } from '@nats-io/jetstream';
import { MessageBatches } from './nats-event-bus';

/** A consumer's messages as the NATS client yields them (an async generator), fed by the test. */
function messageSource() {
  const queue: JsMsg[] = [];
  let wake: (() => void) | null = null;
  const state = { finished: false };
  async function* iterate(): AsyncGenerator<JsMsg> {
    try {
      for (;;) {
        while (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
        yield queue.shift() as JsMsg;
      }
    } finally {
      state.finished = true; // where the client stops its consumer, as after a for-await's break
    }
  }
  const push = (...msgs: JsMsg[]) => {
    queue.push(...msgs);
    wake?.();
  };
  return { messages: { [Symbol.asyncIterator]: iterate }, push, state };
}

const message = (n: number) => ({ n, nak: jest.fn() }) as unknown as JsMsg & { n: number; nak: jest.Mock };
const settlesWithin = (promise: Promise<unknown>, ms: number) =>
  Promise.race([promise.then(() => true), new Promise((resolve) => setTimeout(resolve, ms, false))]);

describe('MessageBatches', () => {
  it('takes what already arrived, up to max, without waiting for more', async () => {
    const source = messageSource();
    const batches = new MessageBatches(source.messages);
    const [a, b, c] = [message(1), message(2), message(3)];
    source.push(a, b, c);
    expect(await batches.take(2)).toEqual([a, b]);
    expect(await batches.take(5)).toEqual([c]);
  });

  it('close() ends the iterator, as a for-await does when its body throws', async () => {
    const source = messageSource();
    const batches = new MessageBatches(source.messages);
    source.push(message(1), message(2));
    expect(await batches.take(2)).toHaveLength(2);
    expect(source.state.finished).toBe(false);
    await batches.close();
    expect(source.state.finished).toBe(true);
    expect(await batches.take(2)).toEqual([]);
  });

  it('close() with a read still pending does not wait for it; the message it brings is nak\'d, then the iterator ends', async () => {
    const source = messageSource();
    const batches = new MessageBatches(source.messages);
    source.push(message(1));
    expect(await batches.take(5)).toHaveLength(1); // leaves a read pending for the next batch
    expect(await settlesWithin(batches.close(), 1_000)).toBe(true);
    const late = message(2);
    source.push(late);
    await new Promise((resolve) => setImmediate(resolve));
    expect(late.nak).toHaveBeenCalledTimes(1);
    expect(source.state.finished).toBe(true);
  });
});
