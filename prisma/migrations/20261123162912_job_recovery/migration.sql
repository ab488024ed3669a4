-- AlterTable
ALTER TABLE "deliveries" ADD COLUMN     "attempt_job_id" TEXT,
ADD COLUMN     "attempt_started_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "worker_heartbeats" (
    "pool_id" TEXT NOT NULL,
    "beat_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "worker_heartbeats_pkey" PRIMARY KEY ("pool_id")
);
