import { isDomainError } from '@exchange/platform';
import { chunksUntilCommit, type UploadPart } from './upload-parts';

async function* partsOf(...parts: UploadPart[]): AsyncGenerator<UploadPart> {
  for (const p of parts) yield p;
}

const chunk = (text: string): UploadPart => ({ kind: 'chunk', bytes: Buffer.from(text) });

async function read(chunks: AsyncIterable<Uint8Array>): Promise<string> {
  let out = '';
  for await (const c of chunks) out += Buffer.from(c).toString();
  return out;
}

describe('chunksUntilCommit', () => {
  it('yields the chunks up to the commit, then exposes the commit; nothing after it is read', async () => {
    let readAfterCommit = false;
    async function* parts(): AsyncGenerator<UploadPart> {
      yield chunk('ab');
      yield chunk('cd');
      yield { kind: 'commit', contentSha256: 'f'.repeat(64) };
      readAfterCommit = true;
      yield chunk('ignored');
    }
    const body = chunksUntilCommit(parts());
    expect(body.commit()).toBeNull();
    expect(await read(body.chunks)).toBe('abcd');
    expect(body.commit()).toEqual({ contentSha256: 'f'.repeat(64) });
    expect(readAfterCommit).toBe(false);
  });

  it('a stream that ends without a commit fails with ABORTED upload_not_committed', async () => {
    const body = chunksUntilCommit(partsOf(chunk('ab')));
    const err = await read(body.chunks).catch((e: unknown) => e);
    expect(isDomainError(err) && [err.code, err.grpcCode]).toEqual(['upload_not_committed', 10]);
    expect(body.commit()).toBeNull();
  });

  it('a failing stream (cancelled call) fails with its error and never commits', async () => {
    async function* cancelled(): AsyncGenerator<UploadPart> {
      yield chunk('ab');
      throw new Error('premature close');
    }
    const body = chunksUntilCommit(cancelled());
    await expect(read(body.chunks)).rejects.toThrow('premature close');
    expect(body.commit()).toBeNull();
  });
});
