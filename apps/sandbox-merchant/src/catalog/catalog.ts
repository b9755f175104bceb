import { parseCsv } from './csv';

// The merchant's catalog (domain, pure): products with stock, discount codes, test instruments.

export interface Product {
  id: string;
  title: string;
  /** Unit price in minor units of the shop currency. */
  price: number;
  image_url?: string;
}

export interface DiscountCode {
  /** Upper-case: codes match case-insensitively (UCP discount extension). */
  code: string;
  type: 'percentage' | 'fixed_amount';
  /** Percent (0–100) or minor units. */
  value: number;
  title: string;
  /** Epoch ms after which the code is expired; absent = never. */
  expiresAt?: number;
}

/** What a payment credential token does when a checkout is completed (sandbox behaviour). */
export type TokenOutcome = 'success' | 'fail' | 'pending';

export interface CatalogSeed {
  products: string;
  inventory: string;
  discounts: string;
  sandboxDiscounts: string;
}

export class Catalog {
  private readonly stock = new Map<string, number>();

  constructor(
    readonly products: ReadonlyMap<string, Product>,
    stock: ReadonlyMap<string, number>,
    readonly discounts: ReadonlyMap<string, DiscountCode>,
  ) {
    for (const [id, quantity] of stock) this.stock.set(id, quantity);
  }

  product(id: string): Product | undefined {
    return this.products.get(id);
  }

  available(id: string): number {
    return this.stock.get(id) ?? 0;
  }

  discount(code: string): DiscountCode | undefined {
    return this.discounts.get(code.toUpperCase());
  }

  /** Takes every quantity or none: false when one line is short. */
  reserve(lines: ReadonlyArray<{ itemId: string; quantity: number }>): boolean {
    const wanted = new Map<string, number>();
    for (const line of lines) wanted.set(line.itemId, (wanted.get(line.itemId) ?? 0) + line.quantity);
    for (const [id, quantity] of wanted) if (this.available(id) < quantity) return false;
    for (const [id, quantity] of wanted) this.stock.set(id, this.available(id) - quantity);
    return true;
  }

  /** Gives back what `reserve` took (a complete_in_progress checkout canceled). */
  release(lines: ReadonlyArray<{ itemId: string; quantity: number }>): void {
    for (const line of lines) this.stock.set(line.itemId, this.available(line.itemId) + line.quantity);
  }
}

function integer(value: string, what: string): number {
  if (!/^\d+$/.test(value)) throw new Error(`catalog: ${what} is not a non-negative integer: ${value}`);
  return Number(value);
}

function discountRow(row: Record<string, string>): DiscountCode {
  if (row.type !== 'percentage' && row.type !== 'fixed_amount') throw new Error(`catalog: discount type ${row.type}`);
  const value = integer(row.value, `discount ${row.code}`);
  if (row.type === 'percentage' && value > 100) throw new Error(`catalog: discount ${row.code} over 100%`);
  const expiresAt = row.expires_at ? Date.parse(row.expires_at) : undefined;
  if (expiresAt !== undefined && Number.isNaN(expiresAt)) throw new Error(`catalog: discount ${row.code} expires_at`);
  return { code: row.code.toUpperCase(), type: row.type, value, title: row.description, ...(expiresAt !== undefined ? { expiresAt } : {}) };
}

export function buildCatalog(seed: CatalogSeed): Catalog {
  const products = new Map<string, Product>();
  for (const row of parseCsv(seed.products)) {
    products.set(row.id, { id: row.id, title: row.title, price: integer(row.price, `price of ${row.id}`), ...(row.image_url ? { image_url: row.image_url } : {}) });
  }
  const stock = new Map<string, number>();
  for (const row of parseCsv(seed.inventory)) stock.set(row.product_id, integer(row.quantity, `stock of ${row.product_id}`));
  const discounts = new Map<string, DiscountCode>();
  for (const row of [...parseCsv(seed.discounts), ...parseCsv(seed.sandboxDiscounts)]) {
    const code = discountRow(row);
    discounts.set(code.code, code);
  }
  return new Catalog(products, stock, discounts);
}

/** Seed tokens (payment_instruments.csv) plus the sandbox's own `pending_token`. */
export function tokenOutcome(token: string | undefined): TokenOutcome {
  if (token === 'success_token') return 'success';
  if (token === 'pending_token') return 'pending';
  return 'fail';
}
