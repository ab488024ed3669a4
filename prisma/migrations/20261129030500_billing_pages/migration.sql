-- AlterTable
ALTER TABLE "credit_ledger" ADD COLUMN     "amount_cents" INTEGER;

-- AlterTable
ALTER TABLE "payments" ADD COLUMN     "receipt_url" TEXT,
ADD COLUMN     "transferred_at" TIMESTAMPTZ(3);
