// What `npm start` prints once the exchange is healthy. The operator token is shown here once
// (DESIGN §3: generated at start and written out once); it never goes through the logger.
export function startBanner(info: {
  url: string;
  environment: string;
  database: string;
  events: string;
  operatorToken: string;
  tokenGenerated: boolean;
  /** Sandbox only: the built-in UCP business's URL. */
  sandboxMerchantUrl?: string;
}): string {
  return [
    '',
    `  Agent Exchange is running (${info.environment}; ${info.database}; ${info.events})`,
    '',
    `  URL:             ${info.url}`,
    `  API reference:   ${info.url}/api-reference`,
    `  Agent guide:     ${info.url}/skill.md   Quickstart: ${info.url}/quickstart.md`,
    `  Health:          ${info.url}/health`,
    `  Operator token:  ${info.operatorToken}${info.tokenGenerated ? '   (generated; set OPERATOR_TOKEN to choose one)' : ''}`,
    ...(info.sandboxMerchantUrl ? [`  Sandbox merchant: ${info.sandboxMerchantUrl}   (sandbox-merchant.local, UCP profile at /.well-known/ucp)`] : []),
    '',
    '  Press Ctrl-C to stop.',
    '',
  ].join('\n');
}
