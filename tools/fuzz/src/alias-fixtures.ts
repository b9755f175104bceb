// A party alias token and an identity reveal of the settled contract's buyer, set aside as
// targets (op-targets.ts): the alias token's object id for its read (in the shared object pool it
// was rarely drawn, and any other object is 404 object_not_found), the alias with its contract
// for a reveal (an example alias is 404 alias_not_found), and a reveal's object id for its read.
import type { ExchangeClient } from '@exchange/sdk';
import type { TargetSet } from './op-targets';
import type { Step } from './fixture-kit';

export const ALIAS_OPS = {
  readToken: 'GET /v1/party_alias_tokens/{object_id}',
  mintReveal: 'POST /v1/identity_reveals/mint',
  readReveal: 'GET /v1/identity_reveals/{object_id}',
} as const;

export interface AliasFixtureOptions {
  operator: ExchangeClient;
  contractId: string;
  /** The agent the buyer's identity is revealed to (it may read the reveal, like the operator). */
  revealTo: string;
  targets: TargetSet;
  step: Step;
}

/** Mints the buyer's alias token and one reveal of it; returns the token's object id, if minted. */
export async function createAliasFixtures(o: AliasFixtureOptions): Promise<string | null> {
  const { operator, contractId, revealTo, targets, step } = o;
  const token = await step('alias token', () => operator.aliases.mint({ contractId, role: 'buyer' }));
  if (!token) return null;
  targets.add(ALIAS_OPS.readToken, null, { object_id: token.object_id });
  const reveal = { contract_id: contractId, alias: token.alias, reveal_to: revealTo };
  // Minting again answers 200 with the same object: the target never runs out.
  targets.add(ALIAS_OPS.mintReveal, null, reveal);
  const minted = await step('identity reveal', () => operator.identityReveals.mint({ contractId, alias: token.alias, revealTo }));
  if (minted) for (const agentId of [null, revealTo]) targets.add(ALIAS_OPS.readReveal, agentId, { object_id: minted.object_id });
  return token.object_id;
}
