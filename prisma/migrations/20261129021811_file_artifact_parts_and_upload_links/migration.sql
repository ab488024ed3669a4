-- AlterTable
ALTER TABLE "a2a_task_links" ADD COLUMN     "artifacts" JSONB;

-- AlterTable
ALTER TABLE "files" ADD COLUMN     "artifact_part" TEXT,
ADD COLUMN     "upload_link_id" TEXT;

-- CreateTable
CREATE TABLE "file_upload_links" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "credential_kind" TEXT NOT NULL,
    "credential_id" TEXT,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "file_upload_links_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "file_upload_links_expires_at_idx" ON "file_upload_links"("expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "files_upload_link_id_key" ON "files"("upload_link_id");

-- CreateIndex
CREATE UNIQUE INDEX "files_task_id_artifact_part_key" ON "files"("task_id", "artifact_part");
