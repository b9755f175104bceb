import type { UcpCapabilityEntry, UcpPaymentHandlerEntry, UcpProfile, UcpVersionConstraint } from './profile-types';

/**
 * UCP capability negotiation, "server selects" (digest §2; UCP overview §Negotiation Protocol),
 * computed on the platform side: what the business will answer with for this platform profile.
 * Pure: no fetching, no clock. Versions are YYYY-MM-DD, so string order is date order.
 */

export const CHECKOUT_CAPABILITY = 'dev.ucp.shopping.checkout';

export type NegotiatedCapabilities = Record<string, Array<{ version: string }>>;

export type NegotiationResult =
  | {
      status: 'ok';
      /** The protocol version of the exchange (the platform profile's `ucp.version`). */
      version: string;
      /** As in a response's `ucp.capabilities`: each negotiated capability at its chosen version. */
      capabilities: NegotiatedCapabilities;
      /** The business's handlers whose name the platform also declares. */
      payment_handlers: Record<string, UcpPaymentHandlerEntry[]>;
    }
  | {
      /** The business supports the platform's version through another (leaf) profile: fetch it and negotiate again. */
      status: 'version_profile';
      version: string;
      profile_url: string;
    }
  | {
      status: 'version_unsupported';
      /** The platform's version, and every version the business profile names. */
      version: string;
      supported: string[];
    }
  | {
      status: 'capabilities_incompatible';
      version: string;
      /** Required capabilities that did not survive negotiation. */
      missing: string[];
      capabilities: NegotiatedCapabilities;
    };

export interface NegotiationOptions {
  /** Capabilities without which the session is useless (default: checkout). */
  required?: readonly string[];
}

interface Selected {
  version: string;
  parents: string[];
  requires: UcpCapabilityEntry['requires'];
}

function parentsOf(entry: UcpCapabilityEntry | undefined): string[] {
  const value = entry?.extends;
  if (value === undefined) return [];
  return typeof value === 'string' ? [value] : [...value];
}

function within(version: string, constraint: UcpVersionConstraint | undefined): boolean {
  if (!constraint) return true;
  return version >= constraint.min && (constraint.max === undefined || version <= constraint.max);
}

/** Step 3: names in both profiles, each at the highest version present in both lists. */
function intersect(platform: UcpProfile, business: UcpProfile): Map<string, Selected> {
  const selected = new Map<string, Selected>();
  const ours = platform.ucp.capabilities ?? {};
  for (const [name, theirs] of Object.entries(business.ucp.capabilities ?? {})) {
    const mine = ours[name];
    if (!mine) continue;
    const common = theirs.filter((b) => mine.some((p) => p.version === b.version)).map((b) => b.version);
    if (common.length === 0) continue;
    const version = common.reduce((a, b) => (b > a ? b : a));
    // The business (the server) declares what its capability extends and requires; the platform's
    // declaration of the same version is the fallback.
    const fromBusiness = theirs.find((b) => b.version === version);
    const fromPlatform = mine.find((p) => p.version === version);
    const parents = parentsOf(fromBusiness).length > 0 ? parentsOf(fromBusiness) : parentsOf(fromPlatform);
    selected.set(name, { version, parents, requires: fromBusiness?.requires ?? fromPlatform?.requires });
  }
  return selected;
}

/**
 * Steps 4–5, to a fixed point: drop an extension when none of its parents is left (a multi-parent
 * extension needs one), or when its `requires` (protocol or capability versions) is not met.
 * Dropping one can orphan another, so repeat until a pass drops nothing.
 */
function prune(selected: Map<string, Selected>, protocolVersion: string): void {
  for (let changed = true; changed; ) {
    changed = false;
    for (const [name, cap] of selected) {
      const orphan = cap.parents.length > 0 && !cap.parents.some((p) => selected.has(p));
      const requires = cap.requires;
      const unmet =
        !within(protocolVersion, requires?.protocol) ||
        Object.entries(requires?.capabilities ?? {}).some(([needed, range]) => {
          const other = selected.get(needed);
          return other !== undefined && !within(other.version, range);
        });
      if (orphan || unmet) {
        selected.delete(name);
        changed = true;
      }
    }
  }
}

function paymentHandlers(platform: UcpProfile, business: UcpProfile): Record<string, UcpPaymentHandlerEntry[]> {
  const ours = platform.ucp.payment_handlers ?? {};
  return Object.fromEntries(Object.entries(business.ucp.payment_handlers ?? {}).filter(([name]) => name in ours));
}

/** Negotiate the platform profile (ours) against a business profile (both already schema-valid). */
export function negotiate(platform: UcpProfile, business: UcpProfile, options: NegotiationOptions = {}): NegotiationResult {
  const version = platform.ucp.version;
  // Step 2: the platform's version must be the business's, or one it names in supported_versions.
  if (version !== business.ucp.version) {
    const leaf = business.ucp.supported_versions?.[version];
    if (leaf !== undefined) return { status: 'version_profile', version, profile_url: leaf };
    const supported = [business.ucp.version, ...Object.keys(business.ucp.supported_versions ?? {})].sort().reverse();
    return { status: 'version_unsupported', version, supported };
  }

  const selected = intersect(platform, business);
  prune(selected, version);
  const capabilities: NegotiatedCapabilities = {};
  const byName = [...selected].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [name, cap] of byName) capabilities[name] = [{ version: cap.version }];

  const missing = (options.required ?? [CHECKOUT_CAPABILITY]).filter((name) => !selected.has(name));
  if (missing.length > 0) return { status: 'capabilities_incompatible', version, missing, capabilities };
  return { status: 'ok', version, capabilities, payment_handlers: paymentHandlers(platform, business) };
}
