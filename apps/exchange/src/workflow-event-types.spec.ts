import { createLogger } from '@exchange/platform';
import { buildGateway, readGatewayConfig } from '@exchange/gateway';
import { TASK_EVENT_TYPES } from '@exchange/workflows';

// The gateway validates subscription filters against its own copy of the task event types (it
// cannot import the workflows app); the launcher sees both, so a type added on one side only
// fails here rather than as a 400 or a dropped event in production.
describe('task event types', () => {
  it('the gateway accepts exactly the types the workflows service records', async () => {
    const addr = '127.0.0.1:9';
    const config = readGatewayConfig({
      IDENTITY_GRPC_URL: addr,
      WALLET_LEDGER_GRPC_URL: addr,
      MARKET_GRPC_URL: addr,
      REGISTRY_GRPC_URL: addr,
      COMMERCE_GRPC_URL: addr,
      WORKFLOWS_GRPC_URL: addr,
      TELEMETRY_GRPC_URL: addr,
      OPERATOR_TOKEN: 'event-types-spec-placeholder-token',
      LOG_LEVEL: 'silent',
    });
    const app = await buildGateway({ config, logger: createLogger({ name: 'event-types-spec', level: 'silent' }) });
    try {
      await app.ready();
      const doc = app.swagger() as { paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: unknown }> } }>> };
      const body = doc.paths['/v1/workflows/tasks/subscriptions'].post.requestBody!.content['application/json'].schema;
      const enums = [...JSON.stringify(body).matchAll(/"enum":\[([^\]]*)\]/g)].map((m) => JSON.parse(`[${m[1]}]`) as string[]);
      const eventTypes = enums.find((values) => values.includes('run.started'));
      expect(eventTypes).toEqual([...TASK_EVENT_TYPES]);
    } finally {
      await app.close();
    }
  });
});
