-- AlterTable
ALTER TABLE "agents" ADD COLUMN     "delivery_window_count" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "delivery_window_start" TIMESTAMPTZ(3);
