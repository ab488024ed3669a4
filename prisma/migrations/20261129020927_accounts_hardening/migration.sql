-- AlterTable
ALTER TABLE "sessions" ADD COLUMN     "api_key_id" TEXT;

-- AlterTable
ALTER TABLE "users" ADD COLUMN     "email_unproven" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE INDEX "sessions_api_key_id_idx" ON "sessions"("api_key_id");

-- AddForeignKey
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE CASCADE;
