import { decodeCursor, encodeCursor, errors } from '@exchange/platform';

// The fixture-seller ranking (passed DESC, last_passed_at DESC, seller_id ASC) pages by keyset:
// the cursor is the platform cursor of the last row with created_at = its last_passed_at and
// id = "<passed>:<seller_id>", so the next page starts strictly after that row in the ranking.

export interface SellerRankKey {
  passed: number;
  lastPassedAt: Date;
  sellerId: string;
}

const PASSED = /^(0|[1-9]\d{0,9}):/;

export function encodeSellerCursor(k: SellerRankKey): string {
  return encodeCursor({ createdAt: k.lastPassedAt, id: `${k.passed}:${k.sellerId}` });
}

/** The rank key of a cursor; anything else → 400 invalid_cursor. */
export function decodeSellerCursor(cursor: string): SellerRankKey {
  const { createdAt, id } = decodeCursor(cursor);
  const m = PASSED.exec(id);
  const sellerId = m ? id.slice(m[0].length) : '';
  if (!m || sellerId === '') throw errors.invalidArgument('invalid_cursor', 'cursor is not valid');
  return { passed: Number(m[1]), lastPassedAt: createdAt, sellerId };
}
