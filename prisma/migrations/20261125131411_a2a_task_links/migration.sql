-- CreateTable
CREATE TABLE "a2a_task_links" (
    "task_id" TEXT NOT NULL,
    "remote_task_id" TEXT NOT NULL,
    "remote_context_id" TEXT NOT NULL,
    "polls" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "a2a_task_links_pkey" PRIMARY KEY ("task_id")
);
