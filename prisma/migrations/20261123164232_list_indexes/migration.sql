-- CreateIndex
CREATE INDEX "credit_ledger_task_id_idx" ON "credit_ledger"("task_id");

-- CreateIndex
CREATE INDEX "deliveries_agent_id_id_idx" ON "deliveries"("agent_id", "id");

-- CreateIndex
CREATE INDEX "tasks_requester_id_id_idx" ON "tasks"("requester_id", "id");

-- CreateIndex
CREATE INDEX "tasks_agent_id_id_idx" ON "tasks"("agent_id", "id");
