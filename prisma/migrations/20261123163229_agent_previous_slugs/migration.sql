-- CreateTable
CREATE TABLE "agent_previous_slugs" (
    "slug" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "agent_previous_slugs_pkey" PRIMARY KEY ("slug")
);

-- CreateIndex
CREATE INDEX "agent_previous_slugs_agent_id_idx" ON "agent_previous_slugs"("agent_id");

-- AddForeignKey
ALTER TABLE "agent_previous_slugs" ADD CONSTRAINT "agent_previous_slugs_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;
