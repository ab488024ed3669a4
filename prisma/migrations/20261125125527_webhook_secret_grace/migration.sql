-- AlterTable
ALTER TABLE "agents" ADD COLUMN     "previous_webhook_secret_enc" TEXT,
ADD COLUMN     "previous_webhook_secret_expires_at" TIMESTAMPTZ(3);
