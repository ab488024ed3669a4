-- AlterTable
ALTER TABLE "agents" ADD COLUMN     "rating_bayes" DOUBLE PRECISION,
ADD COLUMN     "rating_lower_bound" DOUBLE PRECISION,
ADD COLUMN     "success_lower_bound" DOUBLE PRECISION;
