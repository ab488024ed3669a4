-- AlterTable
ALTER TABLE "users" ADD COLUMN     "email_unproven" BOOLEAN NOT NULL DEFAULT false;
