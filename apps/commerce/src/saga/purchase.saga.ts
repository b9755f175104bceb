import type { CommerceRuntime } from '../service/runtime';
import type { PurchaseRecord } from './purchase.model';

export type PurchaseSagaDeps = Pick<CommerceRuntime, 'pool' | 'wallet' | 'merchants' | 'agents' | 'clock' | 'logger' | 'notify' | 'faults'>;

/** INTERFACE FIRST (the implementation lands next): runs a live session's purchase stage by stage. */
export class PurchaseSaga {
  constructor(readonly deps: PurchaseSagaDeps) {}

  /** Pre-checks done by checkout. Runs or resumes the purchase; throws mapped DomainErrors after releasing. */
  complete(_input: { sessionId: string; payment: Record<string, unknown> | null }): Promise<{ purchase: PurchaseRecord | null }> {
    return Promise.reject(new Error('purchase saga not implemented yet'));
  }

  /** Moves an in-flight session on from its stored stage (the recovery worker); true when it moved. */
  resume(_sessionId: string): Promise<boolean> {
    return Promise.resolve(false);
  }
}
