-- DropIndex
DROP INDEX "a2a_push_configs_task_id_config_id_key";

-- CreateIndex
CREATE UNIQUE INDEX "a2a_push_configs_task_id_user_id_config_id_key" ON "a2a_push_configs"("task_id", "user_id", "config_id");
