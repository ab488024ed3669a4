-- AlterTable
ALTER TABLE "agents" ADD COLUMN     "a2a_card" JSONB,
ADD COLUMN     "card_fetched_at" TIMESTAMPTZ(3),
ADD COLUMN     "card_verified" BOOLEAN NOT NULL DEFAULT false;
