import { errors } from '@exchange/platform';
import type { ArtifactEnvelope } from '../domain/records';

const invalid = (field: string, message: string) => errors.invalidArgument('validation_failed', message, { field });

/** Sealed-box envelope metadata as an upload's metadata message carries it. */
export interface EnvelopeInput {
  algorithm: string;
  recipientKeyIds: string[];
  nonce?: string;
}

export function validateEnvelope(e: EnvelopeInput | undefined): ArtifactEnvelope | null {
  if (e === undefined) return null;
  const algorithm = e.algorithm.trim();
  if (algorithm === '' || algorithm.length > 64) throw invalid('envelope.algorithm', 'envelope.algorithm is required (≤ 64 chars)');
  if (e.recipientKeyIds.length === 0 || e.recipientKeyIds.length > 100) throw invalid('envelope.recipient_key_ids', 'envelope needs 1-100 recipient_key_ids');
  for (const k of e.recipientKeyIds) if (k === '' || k.length > 256) throw invalid('envelope.recipient_key_ids', 'recipient key ids are 1-256 chars');
  if (e.nonce !== undefined && e.nonce.length > 256) throw invalid('envelope.nonce', 'envelope.nonce is at most 256 chars');
  return { algorithm, recipient_key_ids: e.recipientKeyIds, ...(e.nonce !== undefined && e.nonce !== '' ? { nonce: e.nonce } : {}) };
}
