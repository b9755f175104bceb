import { errors } from '@exchange/platform';
import { CHECKOUT_CAPABILITY, negotiate, type NegotiationResult, type UcpCapabilityEntry, type UcpProfile } from '@exchange/ucp';
import type { UcpMessage } from '../domain/ucp-types';

// Platform-side UCP negotiation (server selects, ucp-digest §2) for POST …/negotiate: libs/ucp runs
// the algorithm; here the buyer's wish narrows our side and the result becomes what the API shows.
// `capabilities_incompatible` and `version_unsupported` are results, not errors. Pure.

export type NegotiationStatus = 'ok' | 'capabilities_incompatible' | 'version_unsupported';

export interface NegotiatedCapabilityView {
  name: string;
  version: string;
  extends: string[];
}

export interface NegotiationView {
  status: NegotiationStatus;
  version: string;
  capabilities: NegotiatedCapabilityView[];
  /** What the merchant offers (its profile's payment_handlers) when the result is ok, else {}. */
  paymentHandlers: Record<string, unknown>;
  messages: UcpMessage[];
}

const parentsOf = (entry: UcpCapabilityEntry | undefined): string[] =>
  entry?.extends === undefined ? [] : typeof entry.extends === 'string' ? [entry.extends] : [...entry.extends];

/**
 * Our profile with only the capabilities asked for, plus the parents they extend (asking for the
 * discount extension implies checkout). A name our profile does not offer is a 400.
 */
export function narrowPlatformProfile(platform: UcpProfile, requested: readonly string[]): UcpProfile {
  if (requested.length === 0) return platform;
  const offered = platform.ucp.capabilities ?? {};
  const unknown = requested.map((name, i) => ({ name, i })).filter(({ name }) => !Object.prototype.hasOwnProperty.call(offered, name));
  if (unknown.length > 0) {
    throw errors.invalidArgument('validation_failed', `the exchange does not offer ${unknown.map((u) => u.name.slice(0, 100)).join(', ')}`, {
      errors: unknown.map(({ i }) => ({ pointer: `/capabilities/${i}`, message: `not one of ${Object.keys(offered).join(', ')}` })),
    });
  }
  const kept = new Set<string>();
  const keep = (name: string) => {
    if (kept.has(name) || !offered[name]) return;
    kept.add(name);
    for (const entry of offered[name] ?? []) parentsOf(entry).forEach(keep);
  };
  requested.forEach(keep);
  const capabilities = Object.fromEntries(Object.entries(offered).filter(([name]) => kept.has(name)));
  return { ...platform, ucp: { ...platform.ucp, capabilities } };
}

const message = (code: string, content: string): UcpMessage => ({ type: 'error', code, content, severity: 'unrecoverable' });

function capabilityViews(result: Extract<NegotiationResult, { capabilities: unknown }>, platform: UcpProfile, business: UcpProfile): NegotiatedCapabilityView[] {
  return Object.entries(result.capabilities).map(([name, [chosen]]) => {
    const version = chosen?.version ?? '';
    // The business (the server) declares what its capability extends; ours is the fallback.
    const theirs = parentsOf(business.ucp.capabilities?.[name]?.find((c) => c.version === version));
    const ours = parentsOf(platform.ucp.capabilities?.[name]?.find((c) => c.version === version));
    return { name, version, extends: theirs.length > 0 ? theirs : ours };
  });
}

/**
 * Negotiates our (narrowed) profile against the merchant's. Required: what the buyer asked for,
 * else checkout. A version the merchant serves only through another profile (`supported_versions`)
 * is reported as unsupported: that profile's URL is not fetched (it could point anywhere).
 */
export function negotiateWithMerchant(platform: UcpProfile, business: UcpProfile, requested: readonly string[]): NegotiationView {
  const ours = narrowPlatformProfile(platform, requested);
  const required = requested.length > 0 ? [...new Set(requested)] : [CHECKOUT_CAPABILITY];
  const result = negotiate(ours, business, { required });
  switch (result.status) {
    case 'ok':
      return { status: 'ok', version: result.version, capabilities: capabilityViews(result, ours, business), paymentHandlers: business.ucp.payment_handlers ?? {}, messages: [] };
    case 'capabilities_incompatible':
      return {
        status: 'capabilities_incompatible',
        version: result.version,
        capabilities: capabilityViews(result, ours, business),
        paymentHandlers: {},
        messages: [message('capabilities_incompatible', `The merchant does not offer ${result.missing.join(', ')} at a version the exchange speaks.`)],
      };
    case 'version_profile':
      return {
        status: 'version_unsupported',
        version: result.version,
        capabilities: [],
        paymentHandlers: {},
        messages: [message('version_unsupported', `The merchant serves UCP ${result.version} only through another profile, which the exchange does not follow.`)],
      };
    case 'version_unsupported':
      return {
        status: 'version_unsupported',
        version: result.version,
        capabilities: [],
        paymentHandlers: {},
        messages: [message('version_unsupported', `The merchant speaks UCP ${result.supported.join(', ')}; the exchange speaks ${result.version}.`)],
      };
  }
}
