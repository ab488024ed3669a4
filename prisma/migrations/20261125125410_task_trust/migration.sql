-- AlterEnum
-- This migration adds more than one value to an enum.
-- With PostgreSQL versions 11 and earlier, this is not possible
-- in a single migration. This can be worked around by creating
-- multiple migrations, each migration adding only one value to
-- the enum.


ALTER TYPE "TaskStatus" ADD VALUE 'input_required';
ALTER TYPE "TaskStatus" ADD VALUE 'delivered';
ALTER TYPE "TaskStatus" ADD VALUE 'disputed';
ALTER TYPE "TaskStatus" ADD VALUE 'refunded';

-- AlterTable
ALTER TABLE "deliveries" ADD COLUMN     "payload" JSONB,
ADD COLUMN     "type" TEXT NOT NULL DEFAULT 'task.assigned';

-- AlterTable
ALTER TABLE "tasks" ADD COLUMN     "approved_by" TEXT,
ADD COLUMN     "dispute_answer_by" TIMESTAMPTZ(3),
ADD COLUMN     "dispute_contested_at" TIMESTAMPTZ(3),
ADD COLUMN     "dispute_reason" TEXT,
ADD COLUMN     "dispute_statement" TEXT,
ADD COLUMN     "input_hash" TEXT,
ADD COLUMN     "input_request" JSONB,
ADD COLUMN     "input_requested_at" TIMESTAMPTZ(3),
ADD COLUMN     "input_rounds" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "requirements" JSONB,
ADD COLUMN     "result_hash" TEXT,
ADD COLUMN     "review_ends_at" TIMESTAMPTZ(3),
ADD COLUMN     "review_window_seconds" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "routing_explanation" JSONB;

-- CreateTable
CREATE TABLE "task_history" (
    "id" TEXT NOT NULL,
    "task_id" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "actor" TEXT NOT NULL,
    "actor_id" TEXT,
    "action" TEXT NOT NULL,
    "from_status" "TaskStatus",
    "to_status" "TaskStatus" NOT NULL,
    "note" TEXT,
    "data" JSONB,

    CONSTRAINT "task_history_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "task_history_task_id_at_idx" ON "task_history"("task_id", "at");

-- AddForeignKey
ALTER TABLE "task_history" ADD CONSTRAINT "task_history_task_id_fkey" FOREIGN KEY ("task_id") REFERENCES "tasks"("id") ON DELETE CASCADE ON UPDATE CASCADE;
