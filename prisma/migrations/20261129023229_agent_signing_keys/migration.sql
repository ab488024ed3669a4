-- AlterTable
ALTER TABLE "agents" ADD COLUMN     "previous_signing_key_enc" TEXT,
ADD COLUMN     "previous_signing_key_expires_at" TIMESTAMPTZ(3),
ADD COLUMN     "previous_signing_public_key" TEXT,
ADD COLUMN     "signing_key_enc" TEXT,
ADD COLUMN     "signing_public_key" TEXT;
