-- CreateEnum
CREATE TYPE "DeliveryMode" AS ENUM ('push', 'pull');

-- AlterTable
ALTER TABLE "agents" ADD COLUMN     "delivery_mode" "DeliveryMode" NOT NULL DEFAULT 'push';

-- AlterTable
ALTER TABLE "deliveries" ADD COLUMN     "lease_expires_at" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "deliveries_agent_id_status_idx" ON "deliveries"("agent_id", "status");
