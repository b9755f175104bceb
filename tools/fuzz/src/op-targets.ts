// Real ids that reach a 2xx on one operation only together: an open contract and its submitted
// offer (award), a delivered contract, its latest result and its verifier (verify), an unconfirmed
// deposit and its wallet… The pools draw each parameter alone, which rarely pairs an offer with
// its own contract or names the one agent allowed to act; a target keeps them together. Targets
// made only for their operation are kept out of the pools, so other operations do not use them up.
import fc from 'fast-check';

export interface OpTarget {
  /** The signing agent that may act on it (it signs, or the operator acts for it), or null for any. */
  agentId: string | null;
  /** Path parameters and body values by name (agent_id, contract_id, result_id…). */
  params: Readonly<Record<string, string>>;
}

/** Targets by operation key (`POST /v1/contracts/{contract_id}/verify`). */
export type OpTargets = ReadonlyMap<string, readonly OpTarget[]>;

/** Collects targets while fixtures are made. */
export class TargetSet {
  readonly byOp = new Map<string, OpTarget[]>();

  add(opKey: string, agentId: string | null, params: Record<string, string>): void {
    const list = this.byOp.get(opKey) ?? [];
    list.push({ agentId, params });
    this.byOp.set(opKey, list);
  }
}

/** The targets `signerId` may act on for the operation: its own and those of any agent. */
export function targetsFor(targets: OpTargets | undefined, opKey: string, signerId: string): readonly OpTarget[] {
  return (targets?.get(opKey) ?? []).filter((t) => t.agentId === null || t.agentId === signerId);
}

/** Indexes of the signers that own a target of the operation (drawn more often for it). */
export function targetSigners(targets: OpTargets | undefined, opKey: string, signerIds: readonly string[]): number[] {
  const owners = new Set((targets?.get(opKey) ?? []).map((t) => t.agentId));
  return signerIds.flatMap((id, i) => (owners.has(id) ? [i] : []));
}

/** A value of `name` from the signer's targets of the operation, or null when none has one. */
export function targetValue(targets: OpTargets | undefined, opKey: string, signerId: string, name: string): fc.Arbitrary<string> | null {
  const values = [...new Set(targetsFor(targets, opKey, signerId).flatMap((t) => (t.params[name] === undefined ? [] : [t.params[name]])))];
  return values.length === 0 ? null : fc.constantFrom(...values);
}
