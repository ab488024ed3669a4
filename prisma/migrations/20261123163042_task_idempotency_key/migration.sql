-- AlterTable
ALTER TABLE "tasks" ADD COLUMN     "idempotency_key" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "tasks_requester_id_idempotency_key_key" ON "tasks"("requester_id", "idempotency_key");
