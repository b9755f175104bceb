import { faultPointOf } from './config';
import { readWorkflowsConfig } from './index';

const required = {
  DATABASE_URL: 'postgresql://localhost/workflows',
  MARKET_GRPC_URL: '127.0.0.1:1',
  WALLET_LEDGER_GRPC_URL: '127.0.0.1:2',
  REGISTRY_GRPC_URL: '127.0.0.1:3',
  IDENTITY_GRPC_URL: '127.0.0.1:4',
  EXCHANGE_SIGNING_KEY: Buffer.alloc(32, 7).toString('base64'),
};

describe('workflows config: kill-test settings', () => {
  it('has no crash point and the fixed durable by default', () => {
    const config = readWorkflowsConfig(required);
    expect(config.WORKFLOWS_MARKET_DURABLE).toBe('workflows-market');
    expect(faultPointOf(config)).toBeNull();
  });

  it('arms a known crash point in sandbox only', () => {
    expect(faultPointOf(readWorkflowsConfig({ ...required, WORKFLOWS_FAULT_INJECTION: 'after_first_post' }))).toBe('after_first_post');
    expect(faultPointOf(readWorkflowsConfig({ ...required, WORKFLOWS_FAULT_INJECTION: 'after_stage_commit' }))).toBe('after_stage_commit');
    expect(faultPointOf(readWorkflowsConfig({ ...required, EXCHANGE_ENV: 'mainnet', WORKFLOWS_FAULT_INJECTION: 'after_stage_commit' }))).toBeNull();
  });

  it('refuses an unknown crash point and a durable name NATS would refuse', () => {
    expect(() => readWorkflowsConfig({ ...required, WORKFLOWS_FAULT_INJECTION: 'before_post' })).toThrow(/WORKFLOWS_FAULT_INJECTION/);
    expect(() => readWorkflowsConfig({ ...required, WORKFLOWS_MARKET_DURABLE: 'workflows.market' })).toThrow(/WORKFLOWS_MARKET_DURABLE/);
  });
});
