-- The listing index covers every filter column, so that a listing finds its
-- page's ids in the index alone (an index-only scan once vacuum has marked
-- the table's pages visible) and reads only the rows it shows, whatever the
-- filters and however deep the page.
--
-- source and language have three values each, so an index leading with them
-- selects about a third of the rows: the covering index filters them as
-- well, and dropping theirs saves two index insertions per imported signal.
-- tag and country keep their own indexes, which pay off for rare values.
--
-- The remaining listing indexes end with the unique id, so there is never
-- anything to deduplicate: trying, each time a leaf page fills, only costs
-- imports time and WAL.
DROP INDEX signals_public_source;
DROP INDEX signals_public_language;
DROP INDEX signals_public;
CREATE INDEX signals_public ON signals (published_ns DESC, id DESC)
    INCLUDE (tag, source, language, country, observed_ns)
    WHERE status = 'public' AND NOT market_only;
ALTER INDEX signals_public_tag SET (deduplicate_items = off);
ALTER INDEX signals_public_country SET (deduplicate_items = off);
