-- CreateEnum
CREATE TYPE "EndpointState" AS ENUM ('active', 'failing', 'disabled');

-- AlterTable
ALTER TABLE "agents" ADD COLUMN     "delivery_state" "EndpointState" NOT NULL DEFAULT 'active',
ADD COLUMN     "endpoint_disabled_at" TIMESTAMPTZ(3),
ADD COLUMN     "endpoint_fail_streak" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "endpoint_failing_since" TIMESTAMPTZ(3),
ADD COLUMN     "endpoint_ping_ok_at" TIMESTAMPTZ(3),
ADD COLUMN     "max_concurrent_tasks" INTEGER,
ADD COLUMN     "max_deliveries_per_second" INTEGER;

-- AlterTable
ALTER TABLE "users" ADD COLUMN     "notification_secret_enc" TEXT,
ADD COLUMN     "notification_url" TEXT;

-- CreateTable
CREATE TABLE "notifications" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "agent_id" TEXT,
    "type" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "status" "DeliveryStatus" NOT NULL DEFAULT 'pending',
    "attempt_count" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "next_attempt_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "notifications_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "notifications_user_id_id_idx" ON "notifications"("user_id", "id");

-- AddForeignKey
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
