-- AlterEnum
ALTER TYPE "receipt_kind" ADD VALUE 'correction';

-- AlterTable
ALTER TABLE "receipts" ADD COLUMN     "corrects_receipt_id" TEXT,
ADD COLUMN     "reason" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "receipts_corrects_receipt_key" ON "receipts"("corrects_receipt_id");

