import { status } from '@grpc/grpc-js';
import { DomainError, errorInfoFromGrpc, errors, parseAmount } from '@exchange/platform';
import { commerceV1, commerceV1Wire } from '@exchange/proto';
import type { MandateBudget } from '../proxy/budget';
import type { MandateSource } from '../proxy/proxy.ports';
import type { CommerceClient } from './commerce.client';

const UNREACHABLE = new Set<number>([status.UNAVAILABLE, status.DEADLINE_EXCEEDED, status.UNIMPLEMENTED]);

const commerceDown = (why: string) => errors.unavailable('commerce_unavailable', why);

/** A decimal from commerce; a malformed one means commerce is broken, not the caller. */
function micro(value: string, field: string): bigint {
  try {
    return parseAmount(value === '' ? '0' : value);
  } catch {
    throw commerceDown(`commerce returned an invalid mandate ${field}`);
  }
}

export function toMandateBudget(m: commerceV1.Mandate): MandateBudget {
  return {
    mandateId: m.mandateId,
    agentId: m.agentId,
    status: commerceV1Wire.mandateStatus.toWire(m.status) ?? 'unspecified',
    currency: m.currency,
    perTransaction: micro(m.perTransaction, 'per_transaction'),
    totalLimit: micro(m.totalLimit, 'total_limit'),
    spent: micro(m.spent, 'spent'),
    reserved: micro(m.reserved, 'reserved'),
    expiresAt: m.expiresAt ?? null,
  };
}

/**
 * GetMandate as the agent itself (never as operator: commerce then answers 404 for a mandate the
 * agent is no party to). No client configured, or commerce unreachable → 503 commerce_unavailable;
 * its 404 → mandate_not_found; any other refusal passes through with its code.
 */
export class CommerceMandates implements MandateSource {
  constructor(private readonly client: CommerceClient | undefined) {}

  async mandate(agentId: string, mandateId: string, trace: { requestId?: string; traceId?: string }): Promise<MandateBudget> {
    if (!this.client) throw commerceDown('no commerce is configured (COMMERCE_GRPC_URL)');
    let res: commerceV1.GetMandateResponse;
    try {
      res = await this.client.getMandate({ actor: { agentId, operator: false }, mandateId }, trace);
    } catch (err) {
      const info = errorInfoFromGrpc(err);
      if (UNREACHABLE.has(info.grpcCode)) throw commerceDown('commerce is unavailable, retry later');
      if (info.grpcCode === status.NOT_FOUND) throw errors.notFound('mandate', mandateId);
      throw new DomainError(info.grpcCode, info.code, info.message, info.details);
    }
    if (!res.mandate) throw commerceDown('commerce returned no mandate');
    return toMandateBudget(res.mandate);
  }
}
