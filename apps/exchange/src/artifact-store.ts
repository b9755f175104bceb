import { resolve } from 'node:path';

/**
 * Where the registry keeps artifact bytes when the launcher runs it: ARTIFACT_STORE_URL or
 * ARTIFACT_STORE_DIR when set (the registry reads them), else `<data dir>/artifacts` — beside the
 * embedded PostgreSQL data, so `npm start` keeps artifacts across restarts.
 */
export function artifactStoreEnv(env: Record<string, string | undefined>, dataDir: string): Record<string, string> {
  if (env.ARTIFACT_STORE_URL || env.ARTIFACT_STORE_DIR) return {};
  return { ARTIFACT_STORE_DIR: resolve(dataDir, 'artifacts') };
}
