/**
 * A market fake on a real gRPC server (startProtoFake): CreateContract keeps contracts by
 * idempotency key (a re-post with the same key answers the same contract, as the market does),
 * CancelContract and ListResults behave as the market's, and the test drives each contract
 * through award → delivery → settlement (or expiry), each change published as the market's
 * exchange.market.contract.<verb> event on the test's bus.
 */
import { newEvent, type EventBus, type EventEnvelope } from '@exchange/events';
import { errors, newId } from '@exchange/platform';
import { marketV1, marketV1Events } from '@exchange/proto';
import { startProtoFake, type ProtoFake } from '@exchange/testing';

/** One CreateContract answer: a new contract or the replay of the key's earlier one. */
export interface CreateAnswer {
  idempotencyKey: string;
  contractId: string;
  replayed: boolean;
  labels: Record<string, string>;
}

export interface FakeMarket {
  fake: ProtoFake;
  address: string;
  /** Every CreateContract answered, in order (new contracts and replays). */
  answers(): CreateAnswer[];
  /** Every contract created, in creation order. */
  contracts(): marketV1.Contract[];
  /** The contracts of one run's stage (labels), by shard then attempt. */
  ofStage(runId: string, stage: string): marketV1.Contract[];
  /** The live (not failed/cancelled) contract of a shard: the latest attempt. */
  shard(runId: string, stage: string, shard: number): marketV1.Contract;
  award(contractId: string, price: string, sellerId?: string): Promise<EventEnvelope>;
  deliver(contractId: string): Promise<EventEnvelope>;
  /** An accepted result with `artifactRefs`, then settled. */
  settle(contractId: string, artifactRefs?: string[]): Promise<EventEnvelope>;
  expire(contractId: string): Promise<EventEnvelope>;
  /** Award, deliver and settle one contract. */
  complete(contractId: string, price: string, artifactRefs?: string[]): Promise<void>;
  /** Publishes an event again (same id) or a stored one. */
  publish(event: EventEnvelope): Promise<void>;
  /** Whether CreateContract publishes contract.created (true by default). */
  publishOnCreate: boolean;
  stop(): Promise<void>;
}

const STATUS = marketV1.ContractStatus;

export async function startFakeMarket(bus: () => EventBus): Promise<FakeMarket> {
  const byId = new Map<string, marketV1.Contract>();
  const byKey = new Map<string, string>();
  const payloads = new Map<string, string>();
  const results = new Map<string, marketV1.Result[]>();
  const order: string[] = [];
  const answers: CreateAnswer[] = [];
  const m: Partial<FakeMarket> = { publishOnCreate: true };

  const emit = async (verb: string, c: marketV1.Contract): Promise<EventEnvelope> => {
    const event = newEvent({
      type: `exchange.market.contract.${verb}`,
      source: 'market',
      subjectId: c.contractId,
      actor: 'system:market',
      data: marketV1Events.ContractChanged.toJSON({ contract: c }),
    });
    await bus().publish(event);
    return event;
  };
  const get = (id: string) => {
    const c = byId.get(id);
    if (!c) throw new Error(`fake market: no contract ${id}`);
    return c;
  };
  const move = (id: string, status: marketV1.ContractStatus, extra: Partial<marketV1.Contract> = {}) => {
    const c = { ...get(id), ...extra, status, updatedAt: new Date() };
    byId.set(id, c);
    return c;
  };

  const fake = await startProtoFake(marketV1.MarketServiceService, {
    createContract: async (req) => {
      // As the market: the same key replays only the same payload.
      const payload = JSON.stringify(marketV1.CreateContractRequest.toJSON(req));
      const known = byKey.get(req.idempotencyKey);
      if (known) {
        if (payloads.get(req.idempotencyKey) !== payload) throw errors.invalidArgument('idempotency_key_reused', 'idempotency_key was already used with a different request');
        answers.push({ idempotencyKey: req.idempotencyKey, contractId: known, replayed: true, labels: req.labels });
        return { contract: get(known), idempotentReplayed: true };
      }
      payloads.set(req.idempotencyKey, payload);
      const now = new Date();
      const contract: marketV1.Contract = {
        ...marketV1.Contract.fromPartial({}),
        contractId: newId('ctr'),
        buyerId: req.buyerId,
        title: req.title,
        description: req.description,
        tags: req.tags,
        budget: req.budget,
        deadline: req.deadline,
        acceptanceCriteria: req.acceptanceCriteria,
        verificationMode: req.verificationMode,
        verifierId: req.verifierId,
        status: STATUS.CONTRACT_STATUS_OPEN,
        escrowStatus: marketV1.EscrowStatus.ESCROW_STATUS_NONE,
        labels: req.labels,
        inputRefs: req.inputRefs,
        createdAt: now,
        updatedAt: now,
      };
      byId.set(contract.contractId, contract);
      byKey.set(req.idempotencyKey, contract.contractId);
      order.push(contract.contractId);
      answers.push({ idempotencyKey: req.idempotencyKey, contractId: contract.contractId, replayed: false, labels: req.labels });
      if (m.publishOnCreate) await emit('created', contract);
      return { contract, idempotentReplayed: false };
    },
    getContract: (req) => ({ contract: get(req.contractId) }),
    cancelContract: async (req) => {
      const c = get(req.contractId);
      if (c.status === STATUS.CONTRACT_STATUS_CANCELLED) return { contract: c, idempotentReplayed: true };
      if (c.status !== STATUS.CONTRACT_STATUS_OPEN && c.status !== STATUS.CONTRACT_STATUS_AWARDED) throw errors.invalidState('contract', String(c.status), 'cancelled');
      const after = move(req.contractId, STATUS.CONTRACT_STATUS_CANCELLED, { cancelReason: req.reason });
      await emit('cancelled', after);
      return { contract: after, idempotentReplayed: false };
    },
    listResults: (req) => ({ results: results.get(req.contractId) ?? [], page: { nextCursor: '' } }),
  });

  const contracts = () => order.map((id) => get(id));
  const ofStage = (runId: string, stage: string) =>
    contracts()
      .filter((c) => c.labels.workflow_run_id === runId && c.labels.stage === stage)
      .sort((a, b) => Number(a.labels.shard) - Number(b.labels.shard) || Number(a.labels.attempt) - Number(b.labels.attempt));
  Object.assign(m, {
    fake,
    address: fake.address,
    answers: () => [...answers],
    contracts,
    ofStage,
    shard: (runId: string, stage: string, shard: number) => {
      const c = ofStage(runId, stage).filter((x) => Number(x.labels.shard) === shard).at(-1);
      if (!c) throw new Error(`fake market: no contract for ${stage}/${shard}`);
      return c;
    },
    award: (id: string, price: string, sellerId = 'test:agent:seller') =>
      emit('awarded', move(id, STATUS.CONTRACT_STATUS_AWARDED, { sellerId, price: { amount: price, currency: get(id).budget?.currency ?? 'CREDIT' }, escrowStatus: marketV1.EscrowStatus.ESCROW_STATUS_HELD })),
    deliver: (id: string) => emit('delivered', move(id, STATUS.CONTRACT_STATUS_DELIVERED)),
    settle: (id: string, artifactRefs: string[] = []) => {
      const now = new Date();
      const result: marketV1.Result = { ...marketV1.Result.fromPartial({}), resultId: newId('res'), contractId: id, sellerId: get(id).sellerId ?? '', artifactRefs, status: marketV1.ResultStatus.RESULT_STATUS_ACCEPTED, createdAt: now, updatedAt: now };
      results.set(id, [...(results.get(id) ?? []), result]);
      return emit('settled', move(id, STATUS.CONTRACT_STATUS_SETTLED, { escrowStatus: marketV1.EscrowStatus.ESCROW_STATUS_SETTLED, settledAt: now }));
    },
    expire: (id: string) => emit('expired', move(id, STATUS.CONTRACT_STATUS_EXPIRED, { escrowStatus: marketV1.EscrowStatus.ESCROW_STATUS_RELEASED })),
    async complete(id: string, price: string, artifactRefs: string[] = []) {
      await m.award!(id, price);
      await m.deliver!(id);
      await m.settle!(id, artifactRefs);
    },
    publish: (event: EventEnvelope) => bus().publish(event),
    stop: () => fake.stop(),
  });
  return m as FakeMarket;
}
