import { unary, type Logger } from '@exchange/platform';
import type { identityV1 } from '@exchange/proto';
import { mintAliasInput, revealInput, toProtoMintedAlias, toProtoReveal } from './aliases.mapper';
import type { AliasService } from './aliases.service';

export type AliasesRpcs = Pick<identityV1.IdentityServiceServer, 'mintPartyAlias' | 'mintIdentityReveal'>;

/** proto → domain → proto around AliasService; errors and logging live in platform's `unary`. */
export function aliasesHandlers(aliases: AliasService, logger: Logger): AliasesRpcs {
  return {
    mintPartyAlias: unary(logger, 'MintPartyAlias', async (req: identityV1.MintPartyAliasRequest, ctx) =>
      toProtoMintedAlias(await aliases.mintPartyAlias(mintAliasInput(req), ctx)),
    ),
    mintIdentityReveal: unary(logger, 'MintIdentityReveal', async (req: identityV1.MintIdentityRevealRequest, ctx) =>
      toProtoReveal(await aliases.mintIdentityReveal(revealInput(req), ctx)),
    ),
  };
}
