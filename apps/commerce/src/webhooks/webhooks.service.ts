import type { CommerceRuntime } from '../service/runtime';
import { verifyAnyWebhook, type WebhookVerdict, type WebhookVerifyInput } from './webhook-verify';

export type WebhooksDeps = Pick<CommerceRuntime, 'merchants' | 'platform' | 'clock'>;

/** VerifyWebhook: any authenticated agent or operator (the gateway checked who calls). */
export class WebhooksService {
  constructor(private readonly deps: WebhooksDeps) {}

  /** Never throws for a bad signature (valid: false + reason); 400 validation_failed for malformed fields. */
  verify(input: WebhookVerifyInput): Promise<WebhookVerdict> {
    return verifyAnyWebhook({ merchants: this.deps.merchants, clock: this.deps.clock, webhookUrl: this.deps.platform.webhookUrl }, input);
  }
}
