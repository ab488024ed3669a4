-- AlterTable
ALTER TABLE "payments" ADD COLUMN     "card_brand" TEXT,
ADD COLUMN     "card_last4" TEXT,
ADD COLUMN     "held_at" TIMESTAMPTZ(3),
ADD COLUMN     "settled_at" TIMESTAMPTZ(3);
