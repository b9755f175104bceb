// What every *-fixtures.ts file is given: the agents that act, and the setup step that runs one
// piece (a step that fails is recorded as skipped and answers null, so setup goes on).
import type { ExchangeClient } from '@exchange/sdk';

/** A signing agent and its SDK client. */
export interface Party {
  agentId: string;
  client: ExchangeClient;
}

/** A party whose key the fixture signs with (mandates). */
export interface SigningParty extends Party {
  keys: { privateKey: Uint8Array };
}

/** Runs one named setup piece: its value, or null when it failed (then skipped). */
export type Step = <T>(name: string, fn: () => Promise<T>) => Promise<T | null>;
