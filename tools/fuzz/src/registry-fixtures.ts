// Agent and artifact states that the run's own restores undo at once (a fuzzed freeze is unfrozen,
// a takedown reinstated), so the operations that leave them never find one: a frozen agent to
// unfreeze and a taken-down artifact to reinstate, set aside as targets (op-targets.ts); and an
// artifact with an encryption envelope (the pool's has none), and acks on the public artifact.
import { generateAgentKeys, type ExchangeClient } from '@exchange/sdk';
import type { TargetSet } from './op-targets';
import type { Step } from './fixture-kit';

export interface RegistryFixtureOptions {
  operator: ExchangeClient;
  /** An agent that uploads the artifacts. */
  uploader: ExchangeClient;
  /** The public artifact of the pools (acks), if setup made it. */
  publicArtifact: string | null;
  namespace: string;
  targets: TargetSet;
  step: Step;
}

export const REGISTRY_OPS = {
  unfreeze: 'POST /v1/agents/{agent_id}/unfreeze',
  reinstate: 'POST /v1/artifacts/{artifact_ref}/reinstate',
  envelope: 'GET /v1/artifacts/{artifact_ref}/envelope',
  ack: 'POST /v1/artifacts/{artifact_ref}/acks',
} as const;

export async function createRegistryFixtures(o: RegistryFixtureOptions): Promise<void> {
  const { operator, uploader, targets, step } = o;
  const frozen = await step('frozen agent', async () => {
    const agentId = `${o.namespace}:agent:frozen`;
    await operator.agents.registerAgent({ agentId, keys: generateAgentKeys() });
    await operator.agents.freezeAgent(agentId, 'fuzz setup');
    return agentId;
  });
  if (frozen) targets.add(REGISTRY_OPS.unfreeze, null, { agent_id: frozen });
  const removed = await step('taken-down artifact', async () => {
    const a = await uploader.artifacts.upload({ content: Buffer.from(`fuzz takedown ${o.namespace}`), mediaType: 'text/plain', access: 'public' });
    await operator.artifacts.takedown(a.artifact_ref, 'fuzz setup');
    return a.artifact_ref;
  });
  if (removed) targets.add(REGISTRY_OPS.reinstate, null, { artifact_ref: removed });
  const sealed = await step('enveloped artifact', () =>
    uploader.artifacts.upload({
      content: Buffer.from(`fuzz sealed ${o.namespace}`),
      mediaType: 'application/octet-stream',
      access: 'public',
      envelope: { algorithm: 'x25519-xsalsa20-poly1305', recipientKeyIds: ['fuzz-key-1'] },
    }),
  );
  if (sealed) targets.add(REGISTRY_OPS.envelope, null, { artifact_ref: sealed.artifact_ref });
  if (o.publicArtifact) targets.add(REGISTRY_OPS.ack, null, { artifact_ref: o.publicArtifact });
}
