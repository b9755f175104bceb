import { resolve } from 'node:path';
import { artifactStoreEnv } from './artifact-store';

describe('artifactStoreEnv', () => {
  it('should put artifacts under <data dir>/artifacts when nothing is configured', () => {
    expect(artifactStoreEnv({}, '/srv/exchange/.data')).toEqual({ ARTIFACT_STORE_DIR: resolve('/srv/exchange/.data/artifacts') });
  });

  it('should leave a configured store alone (URL or directory)', () => {
    expect(artifactStoreEnv({ ARTIFACT_STORE_URL: 's3://bucket?region=us-east-1' }, '/d')).toEqual({});
    expect(artifactStoreEnv({ ARTIFACT_STORE_DIR: '/mnt/artifacts' }, '/d')).toEqual({});
  });
});
