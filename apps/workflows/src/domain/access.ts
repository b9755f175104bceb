import { errors } from '@exchange/platform';
import type { Actor } from './model';

// Who may do what with a run (pure). An agent acts for itself: it creates runs it owns and reads
// only its own runs and tasks; the operator creates for any owner and reads everything. Another
// agent's run answers the same 404 as an unknown id, so run ids reveal nothing.

function mismatch(field: string, agentId: string | null, given: string): never {
  throw errors.permissionDenied('acting_agent_mismatch', `the acting agent is not ${field} ${given}`, { field, acting_agent: agentId });
}

/** CreateRun: the operator for anyone; an agent only as the owner (403 acting_agent_mismatch). */
export function requireCreator(ownerAgentId: string, actor: Actor): void {
  if (actor.operator) return;
  if (actor.agentId === null || actor.agentId !== ownerAgentId) mismatch('owner_agent_id', actor.agentId, ownerAgentId);
}

export function canRead(ownerAgentId: string, actor: Actor): boolean {
  return actor.operator || (actor.agentId !== null && actor.agentId === ownerAgentId);
}

/** The run, when the actor may read it; else 404 workflow_run_not_found. */
export function readable<R extends { ownerAgentId: string }>(run: R | null, workflowRunId: string, actor: Actor): R {
  if (run === null || !canRead(run.ownerAgentId, actor)) throw errors.notFound('workflow_run', workflowRunId);
  return run;
}

/**
 * The owner filter of a list: the operator's as asked; an agent's is always itself — naming
 * another owner is 403 acting_agent_mismatch (an explicit refusal rather than a silently empty
 * page). Neither agent nor operator: 403 acting_agent_mismatch.
 */
export function listOwner(actor: Actor, requested: string | undefined): string | undefined {
  if (actor.operator) return requested;
  if (actor.agentId === null) throw errors.permissionDenied('acting_agent_mismatch', 'an acting agent or the operator is required', { field: 'owner_agent_id' });
  if (requested !== undefined && requested !== actor.agentId) mismatch('owner_agent_id', actor.agentId, requested);
  return actor.agentId;
}
