import { errors } from '@exchange/platform';
import { marketV1, workflowsV1 } from '@exchange/proto';
import { startProtoFake, type ProtoFake } from '@exchange/testing';
import { registerAgent, startHarness, TestAgent, uniqueAgentId, type Harness } from './harness';

// A WorkflowsService fake for the gateway's workflows specs: answers built from the request (so a
// spec sees what the gateway sent come back as JSON), and the refusals the specs exercise through
// the real gRPC error path: `run_unknown` 404, template `poor` 409 insufficient_funds, template
// `frozen` 403 agent_frozen, `sub_unknown` 404, consuming `evt_unknown` 404. Every other rule is
// the workflows service's own.

const W = workflowsV1;
export const T0 = new Date('2026-11-25T10:00:00.000Z');
export const OWNER = 'acme:agent:buyer-1';

const spec = (over: Partial<workflowsV1.ShardContractSpec> = {}): workflowsV1.ShardContractSpec => ({
  title: 'Translate one chunk',
  description: '',
  tags: ['translation'],
  budget: { amount: '5', currency: 'CREDIT' },
  verificationMode: marketV1.VerificationMode.VERIFICATION_MODE_BUYER,
  acceptanceCriteria: '',
  deadlineSeconds: 3600,
  ...over,
});

export function run(over: Partial<workflowsV1.Run> = {}): workflowsV1.Run {
  return {
    workflowRunId: 'run_1',
    template: 'translate-review',
    ownerAgentId: OWNER,
    status: W.RunStatus.RUN_STATUS_RUNNING,
    stages: [
      {
        name: 'translate',
        index: 0,
        shards: 2,
        contract: spec(),
        status: W.StageStatus.STAGE_STATUS_RUNNING,
        settledShards: 0,
        inputRefs: ['in-1'],
        outputRefs: [],
        startedAt: T0,
      },
    ],
    inputRefs: ['in-1'],
    currentStage: 0,
    maxShardAttempts: 3,
    budget: { amount: '10', currency: 'CREDIT' },
    spent: { amount: '0', currency: 'CREDIT' },
    committed: { amount: '0', currency: 'CREDIT' },
    createdAt: T0,
    updatedAt: T0,
    outputRefs: [],
    ...over,
  };
}

export function task(over: Partial<workflowsV1.Task> = {}): workflowsV1.Task {
  return {
    taskId: 'tsk_1',
    workflowRunId: 'run_1',
    stage: 'translate',
    stageIndex: 0,
    shard: 0,
    attempt: 1,
    status: W.TaskStatus.TASK_STATUS_SETTLED,
    contractId: 'ctr_1',
    contractStatus: marketV1.ContractStatus.CONTRACT_STATUS_SETTLED,
    sellerId: 'acme:agent:seller-1',
    price: { amount: '4.5', currency: 'CREDIT' },
    inputRefs: ['in-1'],
    resultRefs: ['result:res_1'],
    createdAt: T0,
    updatedAt: T0,
    settledAt: T0,
    ...over,
  };
}

export function subscription(over: Partial<workflowsV1.Subscription> = {}): workflowsV1.Subscription {
  return { subscriptionId: 'sub_1', owner: OWNER, filters: { eventTypes: [] }, ackFloor: '0', pendingCount: '2', leaseSeconds: 30, createdAt: T0, ...over };
}

export function taskEvent(over: Partial<workflowsV1.TaskEvent> = {}): workflowsV1.TaskEvent {
  return {
    eventId: 'evt_1',
    sequence: '1',
    type: 'run.started',
    workflowRunId: 'run_1',
    dataJson: JSON.stringify({ run: { workflowRunId: 'run_1' } }),
    occurredAt: T0,
    deliveryCount: 1,
    ...over,
  };
}

const knownRun = (id: string) => {
  if (id === 'run_unknown') throw errors.notFound('workflow_run', id);
};
const knownSubscription = (id: string) => {
  if (id === 'sub_unknown') throw errors.notFound('subscription', id);
};

export function startFakeWorkflows(): Promise<ProtoFake> {
  return startProtoFake(W.WorkflowsServiceService, {
    createRun: (req) => {
      if (req.template === 'poor') throw errors.failedPrecondition('insufficient_funds', 'the run needs 10 CREDIT, 2 are available', { currency: 'CREDIT', available: '2', required: '10' });
      if (req.template === 'frozen') throw errors.permissionDenied('agent_frozen', `agent ${req.ownerAgentId} is frozen`);
      return {
        run: run({
          template: req.template,
          ownerAgentId: req.ownerAgentId,
          status: W.RunStatus.RUN_STATUS_PENDING,
          inputRefs: req.inputRefs,
          maxShardAttempts: req.maxShardAttempts || 3,
          stages: req.stages.map((s, index) => ({
            name: s.name,
            index,
            shards: s.shards,
            contract: s.contract,
            status: W.StageStatus.STAGE_STATUS_PENDING,
            settledShards: 0,
            inputRefs: index === 0 ? req.inputRefs : [],
            outputRefs: [],
          })),
        }),
        idempotentReplayed: req.idempotencyKey === 'replayed-key',
      };
    },
    listRuns: (req) => ({ runs: [run({ template: req.template ?? 'translate-review' })], page: { nextCursor: req.page?.cursor ? '' : 'cur_2' } }),
    getRun: (req) => (knownRun(req.workflowRunId), { run: run({ workflowRunId: req.workflowRunId }) }),
    listRunContracts: (req) => {
      knownRun(req.workflowRunId);
      return {
        contracts: [
          {
            contractId: 'ctr_1',
            workflowRunId: req.workflowRunId,
            stage: req.stage ?? 'translate',
            stageIndex: 0,
            shard: req.shard ?? 0,
            attempt: 1,
            taskId: 'tsk_1',
            status: req.status ?? marketV1.ContractStatus.CONTRACT_STATUS_OPEN,
            createdAt: T0,
            updatedAt: T0,
          },
        ],
        page: { nextCursor: '' },
      };
    },
    exportRun: (req) => {
      knownRun(req.workflowRunId);
      return { docketJson: JSON.stringify({ docket_id: 'dkt_1', subject: { workflow_run_id: req.workflowRunId }, entries: [], signature: 'c2ln' }) };
    },
    listTasks: (req) => {
      if (req.workflowRunId !== undefined) knownRun(req.workflowRunId);
      return { tasks: [task(), task({ taskId: 'tsk_2', shard: 1, status: W.TaskStatus.TASK_STATUS_POSTING, contractId: undefined, contractStatus: undefined, sellerId: undefined, price: undefined, resultRefs: [], settledAt: undefined })], page: { nextCursor: '' } };
    },
    createSubscription: (req) => {
      if (req.filters?.workflowRunId !== undefined) knownRun(req.filters.workflowRunId);
      return {
        subscription: subscription({ owner: req.actor?.operator ? 'operator' : (req.actor?.agentId ?? ''), filters: req.filters, leaseSeconds: req.leaseSeconds || 30 }),
        idempotentReplayed: req.idempotencyKey === 'replayed-key',
      };
    },
    listSubscriptionEvents: (req) => {
      knownSubscription(req.subscriptionId);
      return {
        events: [
          taskEvent(),
          taskEvent({ eventId: 'evt_2', sequence: '2', type: 'task.posted', stage: 'translate', shard: 0, taskId: 'tsk_1', contractId: 'ctr_1', dataJson: JSON.stringify({ task: { taskId: 'tsk_1' } }), deliveryCount: 2 }),
        ],
        subscription: subscription({ subscriptionId: req.subscriptionId }),
      };
    },
    consumeSubscriptionEvents: (req) => {
      knownSubscription(req.subscriptionId);
      if (req.eventIds.includes('evt_unknown') || req.upTo === 'evt_unknown') throw errors.notFound('task_event', 'evt_unknown');
      return { acknowledged: req.eventIds.length || 2, subscription: subscription({ subscriptionId: req.subscriptionId, ackFloor: '2', pendingCount: '0' }) };
    },
  });
}

/** Registers a spec file's harness hooks with this fake behind the gateway and an owner and another agent registered. */
export function useWorkflowsHarness(ready: (h: Harness, owner: TestAgent, other: TestAgent) => void): void {
  let started: Harness | undefined;
  let fake: ProtoFake | undefined;
  beforeAll(async () => {
    fake = await startFakeWorkflows();
    started = await startHarness({ workflows: fake });
    const owner = new TestAgent(uniqueAgentId('owner'));
    const other = new TestAgent(uniqueAgentId('other'));
    await registerAgent(started.app, owner);
    await registerAgent(started.app, other);
    ready(started, owner, other);
  });
  afterAll(async () => {
    await started?.close();
    await fake?.stop();
  });
}
