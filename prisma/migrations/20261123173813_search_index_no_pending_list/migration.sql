-- Hand-written (Prisma cannot express index storage parameters). With fastupdate (the default), new
-- entries of the full-text index wait in an unsorted pending list that every search must scan in full
-- until a vacuum merges it: at 100 000 agents loaded without a vacuum since, that list made the index
-- part of a broad search five times slower. Searches far outnumber agent writes, so each write now
-- merges its entries at once.
ALTER INDEX "agents_search_vector_idx" SET (fastupdate = off);
