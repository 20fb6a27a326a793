-- Searches running somewhere among the serve processes: identical searches
-- elsewhere wait for the holder's result in search_cache instead of
-- searching again. A claim ends when released or when its lease passes, so
-- a process that dies mid-search frees it.
CREATE TABLE search_flights (
    key        TEXT   PRIMARY KEY,
    token      TEXT   NOT NULL,
    expires_ns BIGINT NOT NULL
);
