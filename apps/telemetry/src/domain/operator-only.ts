import { errors } from '@exchange/platform';

/** The caller as the gateway states it: an agent, or the operator. */
export interface Caller {
  agentId: string;
  operator: boolean;
}

/** Operator events carry every party and note: an agent (or no stated caller) gets 403 operator_required. */
export function requireOperator(caller: Caller | undefined, what: string): void {
  if (!caller?.operator) throw errors.permissionDenied('operator_required', `only the operator may read ${what}`);
}
