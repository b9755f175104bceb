import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';

/**
 * Removes a durable consumer a test created on the EXCHANGE stream, so a shared NATS server does
 * not keep it (and its pending messages) forever. Absent already: nothing to do.
 */
export async function deleteDurableConsumer(natsUrl: string, durable: string, stream = 'EXCHANGE'): Promise<void> {
  const nc = await connect({ servers: natsUrl });
  try {
    await (await jetstreamManager(nc)).consumers.delete(stream, durable).catch(() => undefined);
  } finally {
    await nc.close();
  }
}
