-- AlterEnum
ALTER TYPE "receipt_kind" ADD VALUE 'purchase_refund';

-- AlterTable
ALTER TABLE "receipts" ADD COLUMN     "reference" TEXT,
ADD COLUMN     "refunds_receipt_id" TEXT;

-- CreateIndex
CREATE INDEX "receipts_refunds_receipt_idx" ON "receipts"("refunds_receipt_id");



-- Hand-written below (commerce post-purchase refunds; README.md "Purchase refunds").
-- Compared as text: the new enum value cannot be used in the transaction that adds it.
-- A purchase refund receipt, and only it, names the settlement receipt it pays back; it moves a
-- positive amount, with no fee and nothing "returned to the payer" (the merchant account pays).
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_purchase_refund_shape"
  CHECK ((("kind"::text = 'purchase_refund') = ("refunds_receipt_id" IS NOT NULL))
     AND ("kind"::text <> 'purchase_refund'
          OR ("amount" > 0 AND "fee" = 0 AND "refunded_amount" = 0 AND "refunds_receipt_id" <> "receipt_id")));
-- The caller's reference (commerce's case id) exists only on purchase refunds.
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_reference_purchase_refund"
  CHECK ("reference" IS NULL OR "kind"::text = 'purchase_refund');
