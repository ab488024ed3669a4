-- CreateTable
CREATE TABLE "a2a_push_configs" (
    "id" TEXT NOT NULL,
    "task_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "config_id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "token_enc" TEXT,
    "auth_scheme" TEXT,
    "credentials_enc" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "a2a_push_configs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "a2a_push_configs_task_id_config_id_key" ON "a2a_push_configs"("task_id", "config_id");
