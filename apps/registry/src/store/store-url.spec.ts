import { parseStoreUrl } from './store-url';

describe('parseStoreUrl', () => {
  it('defaults to <cwd>/.data/artifacts, or ARTIFACT_STORE_DIR', () => {
    expect(parseStoreUrl(undefined, { cwd: '/srv' })).toEqual({ kind: 'file', dir: '/srv/.data/artifacts' });
    expect(parseStoreUrl('', { cwd: '/srv', dir: '/var/a' })).toEqual({ kind: 'file', dir: '/var/a' });
  });

  it('reads file:///abs/dir', () => {
    expect(parseStoreUrl('file:///data/blobs', { cwd: '/srv' })).toEqual({ kind: 'file', dir: '/data/blobs' });
  });

  it('reads s3://bucket with endpoint, region and path style', () => {
    expect(
      parseStoreUrl('s3://art?endpoint=http://127.0.0.1:9000&region=eu-west-1&force_path_style=true', {
        cwd: '/',
        accessKeyId: 'AK',
        secretAccessKey: 'SK',
      }),
    ).toEqual({
      kind: 's3',
      bucket: 'art',
      endpoint: 'http://127.0.0.1:9000',
      region: 'eu-west-1',
      forcePathStyle: true,
      accessKeyId: 'AK',
      secretAccessKey: 'SK',
    });
    expect(parseStoreUrl('s3://b', { cwd: '/' })).toMatchObject({ region: 'us-east-1', forcePathStyle: false, endpoint: undefined });
  });

  it('refuses other schemes', () => {
    expect(() => parseStoreUrl('http://x/y', { cwd: '/' })).toThrow(/not supported/);
  });
});
