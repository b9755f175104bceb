import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileStore, type ArtifactStore } from './artifact-store';
import { S3Store, type S3StoreOptions } from './s3-store';

export type StoreSpec = { kind: 'file'; dir: string } | ({ kind: 's3' } & S3StoreOptions);

/**
 * ARTIFACT_STORE_URL → store spec. Unset → filesystem in `dir` (ARTIFACT_STORE_DIR or
 * `<cwd>/.data/artifacts`); `file:///abs/dir`; `s3://bucket?endpoint=…&region=…&force_path_style=true`.
 */
export function parseStoreUrl(
  url: string | undefined,
  env: { dir?: string; cwd: string; accessKeyId?: string; secretAccessKey?: string },
): StoreSpec {
  if (url === undefined || url === '') return { kind: 'file', dir: env.dir ?? path.join(env.cwd, '.data', 'artifacts') };
  const parsed = new URL(url);
  if (parsed.protocol === 'file:') return { kind: 'file', dir: fileURLToPath(parsed) };
  if (parsed.protocol === 's3:') {
    const bucket = parsed.hostname;
    if (bucket === '') throw new Error('ARTIFACT_STORE_URL s3:// needs a bucket');
    const q = parsed.searchParams;
    return {
      kind: 's3',
      bucket,
      endpoint: q.get('endpoint') ?? undefined,
      region: q.get('region') ?? 'us-east-1',
      forcePathStyle: q.get('force_path_style') === 'true',
      accessKeyId: env.accessKeyId,
      secretAccessKey: env.secretAccessKey,
    };
  }
  throw new Error(`ARTIFACT_STORE_URL scheme ${parsed.protocol} is not supported`);
}

export function createStore(spec: StoreSpec): ArtifactStore {
  if (spec.kind === 'file') return new FileStore(spec.dir);
  const { kind: _kind, ...opts } = spec;
  return new S3Store(opts);
}
