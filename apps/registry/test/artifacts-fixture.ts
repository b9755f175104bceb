import fs from 'node:fs';
import path from 'node:path';
import { contractFixture, startRegistryHarness, type RegistryHarness, type TestAgent } from './registry-harness';

// What the artifacts-*.grpc.spec.ts files share: one registry each, with the same cast of agents.

export const MiB = 1024 * 1024;
/** Rows an upload writes: the bytes' and the upload's. */
export const COUNT_ROWS = `SELECT (SELECT count(*) FROM artifacts) + (SELECT count(*) FROM artifact_uploads) AS n`;

export function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

export interface ArtifactsWorld {
  h: RegistryHarness;
  buyer: TestAgent;
  seller: TestAgent;
  stranger: TestAgent;
  listed: TestAgent;
}

/** A registry with a buyer and a seller of `contractId` (in the fake market), a stranger and an agent to list as a party. */
export async function startArtifactsWorld(contractId: string): Promise<ArtifactsWorld> {
  const h = await startRegistryHarness();
  const buyer = h.newAgent('buyer');
  const seller = h.newAgent('seller');
  const stranger = h.newAgent('stranger');
  const listed = h.newAgent('listed');
  h.fakes.contracts.set(contractId, contractFixture(contractId, buyer.agentId, seller.agentId));
  return { h, buyer, seller, stranger, listed };
}
