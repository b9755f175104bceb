import { marketV1Wire, workflowsV1Wire } from '@exchange/proto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf, signerOf } from '../../lib/acting-agent';
import { nextCursorToJson, pageFromQuery } from '../../lib/pagination';
import { AGENT_OR_OPERATOR, IDEMPOTENCY_NOTE, marketKeyOf, MUTATION_ERRORS, OPERATOR_ONLY, READ_ERRORS, replayed, SECURITY } from '../../lib/route-kit';
import {
  CreateRunBody,
  ExportRunBody,
  ListRunContractsQuery,
  ListRunsQuery,
  RunParams,
  WorkflowRun,
  WorkflowRunDocket,
  WorkflowRunPage,
  WorkflowShardContractPage,
  type CreateRunBodyJson,
} from './runs.schemas';
import { docketToJson, runToJson, shardContractToJson } from './workflows.mapper';

// Workflow runs (DESIGN §4 Workflows) over WorkflowsService: create, list, read, the shard
// contracts, the casefile export. Workflows checks who may do what (it gets the Actor). Full paths.

export const TAGS = ['Workflows'];
export const READERS = 'The run’s owner or the operator; another agent’s or an unknown run is 404 `workflow_run_not_found`.';

function stagesToProto(stages: CreateRunBodyJson['stages']) {
  return stages.map((s) => ({
    name: s.name,
    shards: s.shards,
    contract: {
      title: s.contract.title,
      description: s.contract.description ?? '',
      tags: s.contract.tags ?? [],
      budget: { amount: s.contract.budget.amount, currency: s.contract.budget.currency },
      verificationMode: marketV1Wire.verificationMode.toProto(s.contract.verification_mode),
      acceptanceCriteria: s.contract.acceptance_criteria,
      verifierId: s.contract.verifier_id,
      deadlineSeconds: s.contract.deadline_seconds,
    },
  }));
}

const runsRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  const { workflows } = fastify;

  fastify.post(
    '/v1/workflows/runs',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'createWorkflowRun',
        summary: 'Create a workflow run',
        description:
          'A run of `stages`, one after the other: a stage posts `shards` contracts in the market (buyer: the owner; labelled ' +
          '`workflow_run_id`, `stage`, `shard`, `attempt`; `input_refs`: the run’s for the first stage, else the previous stage’s ' +
          'results), and starts when every shard of the previous one settled. A shard whose contract expires, is cancelled or ' +
          'refunded is posted again up to `max_shard_attempts`; then the run fails and its open shard contracts are cancelled ' +
          '(escrow refunded). The owner’s available balance must cover the budget (Σ shards × shard budget; else 409 ' +
          '`insufficient_funds`). The owner is the acting agent or, for the operator, `owner_agent_id` (another agent: 403 ' +
          '`acting_agent_mismatch`). Errors: 400 `validation_failed`, `duplicate_stage_name`, `run_currency_mismatch`, ' +
          '`invalid_amount`, `unsupported_currency`; 403 `agent_frozen`; 404 `agent_not_found`; 422 `idempotency_key_reused`. ' +
          IDEMPOTENCY_NOTE,
        security: SECURITY.operator_or_agent,
        body: CreateRunBody,
        response: { 201: WorkflowRun, ...MUTATION_ERRORS },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const res = await workflows.createRun(
        {
          actor: actorOf(request),
          ownerAgentId: signerOf(b.owner_agent_id, request.auth.actingAgentId, 'owner_agent_id'),
          template: b.template,
          stages: stagesToProto(b.stages),
          inputRefs: b.input_refs ?? [],
          maxShardAttempts: b.max_shard_attempts ?? 0,
          idempotencyKey: marketKeyOf(request),
        },
        request.auth.callOptions,
      );
      replayed(reply, res);
      const run = runToJson(res.run);
      return reply.code(201).header('location', `/v1/workflows/runs/${run.workflow_run_id}`).send(run);
    },
  );

  fastify.get(
    '/v1/workflows/runs',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'listWorkflowRuns',
        summary: 'List workflow runs',
        description:
          'Newest first; filters `template`, `agent` (the owner) and `status`; cursor pagination. An agent sees its own runs, ' +
          'the operator every run.',
        security: SECURITY.operator_or_agent,
        querystring: ListRunsQuery,
        response: { 200: WorkflowRunPage, ...READ_ERRORS },
      },
    },
    async (request) => {
      const q = request.query;
      const res = await workflows.listRuns(
        {
          actor: actorOf(request),
          page: pageFromQuery(q),
          template: q.template,
          ownerAgentId: q.agent,
          status: q.status === undefined ? undefined : workflowsV1Wire.runStatus.toProto(q.status),
        },
        request.auth.callOptions,
      );
      return { data: res.runs.map(runToJson), next_cursor: nextCursorToJson(res.page) };
    },
  );

  fastify.get(
    '/v1/workflows/runs/:workflow_run_id',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'getWorkflowRun',
        summary: 'Read a workflow run',
        description: 'The run with its stages (status, settled shards, inputs and outputs), budget, spent and committed. ' + READERS,
        security: SECURITY.operator_or_agent,
        params: RunParams,
        response: { 200: WorkflowRun, ...READ_ERRORS },
      },
    },
    async (request) => {
      const res = await workflows.getRun({ actor: actorOf(request), workflowRunId: request.params.workflow_run_id }, request.auth.callOptions);
      return runToJson(res.run);
    },
  );

  fastify.get(
    '/v1/workflows/runs/:workflow_run_id/contracts',
    {
      config: AGENT_OR_OPERATOR,
      schema: {
        tags: TAGS,
        operationId: 'listWorkflowRunContracts',
        summary: 'List a run’s shard contracts',
        description:
          'Every contract the run posted (one per shard attempt), with the market status the run last saw; filters `stage`, ' +
          '`shard`, `status` (market contract status); cursor pagination. Offer on them, deliver and verify through /v1/contracts. ' +
          READERS,
        security: SECURITY.operator_or_agent,
        params: RunParams,
        querystring: ListRunContractsQuery,
        response: { 200: WorkflowShardContractPage, ...READ_ERRORS },
      },
    },
    async (request) => {
      const q = request.query;
      const res = await workflows.listRunContracts(
        {
          actor: actorOf(request),
          workflowRunId: request.params.workflow_run_id,
          page: pageFromQuery(q),
          stage: q.stage,
          shard: q.shard,
          status: q.status === undefined ? undefined : marketV1Wire.contractStatus.toProto(q.status),
        },
        request.auth.callOptions,
      );
      return { data: res.contracts.map(shardContractToJson), next_cursor: nextCursorToJson(res.page) };
    },
  );

  fastify.post(
    '/v1/workflows/runs/:workflow_run_id/export',
    {
      config: OPERATOR_ONLY,
      schema: {
        tags: TAGS,
        operationId: 'exportWorkflowRun',
        summary: 'Export a run’s casefile docket (operator)',
        description:
          'The run’s casefile: its record, its tasks, then every shard contract’s docket entries (contract, offers, results, ' +
          'verification reports, disputes, receipts), signed by the exchange key (the one /health publishes). Verify it with ' +
          'POST /v1/casefiles/verify `{docket}` or offline. Operator only (an agent-signed request: 403 `operator_token_required`); unknown run 404 ' +
          '`workflow_run_not_found`.',
        security: SECURITY.operator,
        params: RunParams,
        body: ExportRunBody,
        response: { 200: WorkflowRunDocket, ...MUTATION_ERRORS },
      },
    },
    async (request) => {
      const res = await workflows.exportRun({ actor: actorOf(request), workflowRunId: request.params.workflow_run_id }, request.auth.callOptions);
      return docketToJson(res);
    },
  );
};

export default runsRoutes;
