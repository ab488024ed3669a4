-- Hand-written: agent_search rebuilt with its columns in the order a search reads them. The generated
-- rank factors (migration search_rank_factors) were added at the end of the row, behind the document and
-- the three arrays, so every ranked match had all of those decoded to reach them. Fixed-width columns
-- come first again (rank factors included), then the document and the id, and the arrays that only
-- filters read come last. Measured at 100 000 agents: a broad one-word query about 10 % faster.
-- The rebuild copies every row once (about 1 s for 100 000 agents), holding the table lock meanwhile.
-- The triggers on agents name the table and find the new one.

CREATE TABLE "agent_search_rebuilt" (
    "trust_score" DOUBLE PRECISION NOT NULL,
    "rating_sum" INTEGER NOT NULL,
    "rating_count" INTEGER NOT NULL,
    "task_count" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "quality_prior" DOUBLE PRECISION NOT NULL
      GENERATED ALWAYS AS (1 + 0.25 * trust_score + 0.1 * COALESCE((rating_sum::float8 / NULLIF(rating_count, 0) - 1) / 4, 0)) STORED,
    "text_norm" DOUBLE PRECISION NOT NULL
      GENERATED ALWAYS AS (1 / (1 + 0.2 * ln(1 + length(search_vector)))) STORED,
    "status" "AgentStatus" NOT NULL,
    "search_vector" tsvector NOT NULL,
    "id" TEXT NOT NULL,
    "protocols" TEXT[],
    "categories" TEXT[],
    "capabilities" TEXT[]
);

INSERT INTO "agent_search_rebuilt" (trust_score, rating_sum, rating_count, task_count, created_at, updated_at, status, search_vector, id, protocols, categories, capabilities)
SELECT trust_score, rating_sum, rating_count, task_count, created_at, updated_at, status, search_vector, id, protocols, categories, capabilities
FROM "agent_search";

DROP TABLE "agent_search";
ALTER TABLE "agent_search_rebuilt" RENAME TO "agent_search";
ALTER TABLE "agent_search" ADD CONSTRAINT "agent_search_pkey" PRIMARY KEY ("id");
ALTER TABLE "agent_search" ADD CONSTRAINT "agent_search_id_fkey" FOREIGN KEY ("id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;
-- As before: built after the copy, with no pending list (migration search_index_no_pending_list).
CREATE INDEX "agent_search_search_vector_idx" ON "agent_search" USING GIN ("search_vector") WITH (fastupdate = off);
-- The copy leaves no statistics: the planner gets them now rather than at the first autovacuum.
ANALYZE "agent_search";
