import { ConfigError, type Logger } from '@exchange/platform';
import { readSandboxMerchantConfig, SandboxMerchantConfigSchema, startSandboxMerchant, type SandboxMerchantConfig } from '@exchange/sandbox-merchant';

// The built-in UCP business (apps/sandbox-merchant, issue 15) that both launchers run next to the
// exchange in sandbox mode. Commerce finds it through MERCHANT_DIRECTORY (the only way a merchant
// may be plain http) and it posts signed order webhooks to the gateway.

export const SANDBOX_MERCHANT_DOMAIN = 'sandbox-merchant.local';
/** The gateway's receiver for merchants' order webhooks. */
export const ORDER_WEBHOOK_PATH = '/v1/commerce/ucp/webhooks/orders';
/** `SANDBOX_MERCHANT_<KEY>` sets the merchant's `<KEY>` (the merchant's own names clash: PORT, HOST, BODY_LIMIT_BYTES). */
export const SANDBOX_MERCHANT_ENV_PREFIX = 'SANDBOX_MERCHANT_';

/** Sandbox only: a mainnet exchange never runs (or lists) a fake merchant. */
export function runsSandboxMerchant(environment: string): boolean {
  return environment === 'sandbox';
}

/** The MERCHANT_DIRECTORY value for commerce: `{"sandbox-merchant.local":"<url>"}`. */
export function merchantDirectory(merchantUrl: string): string {
  return JSON.stringify({ [SANDBOX_MERCHANT_DOMAIN]: merchantUrl });
}

export function orderWebhookUrl(gatewayUrl: string): string {
  return `${gatewayUrl.replace(/\/+$/, '')}${ORDER_WEBHOOK_PATH}`;
}

/** `http://host:port` as seen from this machine (a wildcard bind is reached on loopback). */
export function localUrl(host: string, port: number): string {
  const reachable = host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

/**
 * The merchant's complete environment: every key of its config schema is set here (undefined when
 * not configured), so nothing leaks in from the launcher's own environment (its PORT is the
 * gateway's). Sources, first wins: `SANDBOX_MERCHANT_<KEY>`, the unprefixed `MERCHANT_*` keys
 * (signing key and kid), then the launcher's defaults: loopback only, `defaultPort`, webhooks to
 * the gateway, the exchange's log level.
 */
export function sandboxMerchantEnv(
  env: Record<string, string | undefined>,
  defaults: { port: number; webhookUrl: string; logLevel: string },
): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const key of Object.keys(SandboxMerchantConfigSchema.properties)) {
    out[key] = env[`${SANDBOX_MERCHANT_ENV_PREFIX}${key}`] ?? (key.startsWith('MERCHANT_') ? env[key] : undefined);
  }
  out.PORT ??= String(defaults.port);
  out.HOST ??= '127.0.0.1';
  out.WEBHOOK_URL ??= defaults.webhookUrl;
  out.LOG_LEVEL ??= defaults.logLevel;
  out.EXCHANGE_ENV = 'sandbox';
  return out;
}

/** Where the merchant of `merchantEnv` is reached (its PUBLIC_URL, else its loopback address). */
export function sandboxMerchantUrl(merchantEnv: Record<string, string | undefined>): string {
  return merchantEnv.PUBLIC_URL?.replace(/\/+$/, '') ?? localUrl(merchantEnv.HOST ?? '127.0.0.1', Number(merchantEnv.PORT));
}

/** Reads `merchantEnv` as the merchant will, naming a bad setting by the variable the operator set. */
export function readMerchantConfig(merchantEnv: Record<string, string | undefined>): SandboxMerchantConfig {
  try {
    return readSandboxMerchantConfig(merchantEnv);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    throw new ConfigError(`${SANDBOX_MERCHANT_ENV_PREFIX}${err.variable}`, err.message.replace(/^Invalid configuration: \S+ /, ''));
  }
}

export interface LocalSandboxMerchant {
  url: string;
  profileUrl: string;
  /** MERCHANT_DIRECTORY for commerce. */
  directory: string;
  /** Where it posts order webhooks (the gateway's receiver unless SANDBOX_MERCHANT_WEBHOOK_URL says otherwise). */
  webhookUrl?: string;
  stop(): Promise<void>;
}

/** All-in-one mode: the merchant in this process, on a free loopback port unless SANDBOX_MERCHANT_PORT is set. */
export async function startLocalSandboxMerchant(opts: {
  env: Record<string, string | undefined>;
  gatewayUrl: string;
  logLevel: string;
  logger: Logger;
}): Promise<LocalSandboxMerchant> {
  const config = readMerchantConfig(sandboxMerchantEnv(opts.env, { port: 0, webhookUrl: orderWebhookUrl(opts.gatewayUrl), logLevel: opts.logLevel }));
  const merchant = await startSandboxMerchant(config, { logger: opts.logger });
  opts.logger.info({ url: merchant.url, domain: SANDBOX_MERCHANT_DOMAIN, webhookUrl: config.WEBHOOK_URL }, 'sandbox merchant listening');
  return {
    url: merchant.url,
    profileUrl: merchant.profileUrl,
    directory: merchantDirectory(merchant.url),
    webhookUrl: config.WEBHOOK_URL,
    stop: () => merchant.stop(),
  };
}
