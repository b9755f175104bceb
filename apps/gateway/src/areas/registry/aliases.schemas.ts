import { identityV1Wire } from '@exchange/proto';
import { ContractId, CTR, OBJ, ObjectId, PUB, SIG, SIGNER } from './registry.schemas';
import { AgentId, StringEnum } from '../../schemas/common';
import { Type } from 'typebox';

// REST shapes of party alias tokens and identity reveals (building blocks in registry.schemas.ts).

// ─── aliases and identity reveals ───────────────────────────────────────────────────────────

export const ROLES = identityV1Wire.partyRole.names;
export type RoleName = (typeof ROLES)[number];
const Alias = Type.String({ pattern: '^anon:[a-z2-7]{12}$', description: '`anon:` + 12 base32 characters', examples: ['anon:k3xq7m2pz4ab'] });

export const MintAliasBody = Type.Object(
  { contract_id: ContractId, role: StringEnum(ROLES) },
  { additionalProperties: false, examples: [{ contract_id: CTR, role: 'buyer' }] },
);
export const AliasToken = Type.Object(
  {
    object_id: ObjectId,
    alias: Type.String(),
    contract_id: Type.String(),
    role: StringEnum(ROLES),
    payload: Type.Unknown({ description: '{alias, contract_id, role}' }),
    signature: Type.String({ description: 'Base64 ed25519 by the exchange key over canonical JSON of `payload`' }),
    signer_public_key: Type.String(),
  },
  {
    additionalProperties: false,
    description: 'A party alias token, exchange-signed',
    examples: [{ object_id: OBJ, alias: 'anon:k3xq7m2pz4ab', contract_id: CTR, role: 'buyer', payload: { alias: 'anon:k3xq7m2pz4ab', contract_id: CTR, role: 'buyer' }, signature: SIG, signer_public_key: PUB }],
  },
);
export const MintRevealBody = Type.Object(
  { contract_id: ContractId, alias: Alias, reveal_to: AgentId },
  { additionalProperties: false, examples: [{ contract_id: CTR, alias: 'anon:k3xq7m2pz4ab', reveal_to: SIGNER }] },
);
