-- AlterTable
ALTER TABLE "payments" ADD COLUMN     "failure_message" TEXT,
ADD COLUMN     "payee_id" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "credit_ledger_intent_id_key" ON "credit_ledger"("intent_id");

-- CreateIndex
CREATE INDEX "payments_payee_id_status_idx" ON "payments"("payee_id", "status");
