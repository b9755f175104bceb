import { identityV1, identityV1Wire } from '@exchange/proto';
import type { MintedAlias } from './aliases.service';
import type { StoredExchangeObject } from './alias.ports';
import type { MintAliasInput, PartyRole, RevealInput } from './party-alias';

// proto ⇄ domain for party aliases and identity reveals. An unknown role maps to null: the use
// case refuses it among its other checks, in their order.
const partyRole = (role: identityV1.PartyRole): PartyRole | null => identityV1Wire.partyRole.toWire(role) ?? null;

export function mintAliasInput(req: identityV1.MintPartyAliasRequest): MintAliasInput {
  return { contractId: req.contractId, role: partyRole(req.role), agentId: req.agentId, generation: req.generation };
}

export function toProtoMintedAlias(minted: MintedAlias): identityV1.MintPartyAliasResponse {
  return {
    alias: minted.alias,
    objectId: minted.objectId,
    payloadJson: minted.payloadJson,
    signature: minted.signature,
    created: minted.created,
  };
}

export function revealInput(req: identityV1.MintIdentityRevealRequest): RevealInput {
  return { contractId: req.contractId, alias: req.alias, revealTo: req.revealTo };
}

export function toProtoReveal(reveal: StoredExchangeObject): identityV1.MintIdentityRevealResponse {
  return { objectId: reveal.objectId, payloadJson: reveal.payloadJson, signature: reveal.signature, created: reveal.created };
}
