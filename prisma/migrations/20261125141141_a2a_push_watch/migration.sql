-- AlterTable
ALTER TABLE "a2a_push_configs" ADD COLUMN     "idle_rounds" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "last_pushed" TEXT;
