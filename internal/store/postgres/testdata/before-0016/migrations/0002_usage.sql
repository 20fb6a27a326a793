-- Request and search usage per account in its current windows (Unix seconds
-- of the UTC minute and day). A window older than the current one counts as
-- empty; windows only move forward, so replicas whose clocks differ slightly
-- never reset a newer window. last_denied is the outcome of the latest
-- TakeRequest ('' when it was counted), returned by the same statement.
CREATE TABLE usage (
    account_id       BIGINT  PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
    minute_start     BIGINT  NOT NULL,
    minute_used      INTEGER NOT NULL,
    day_start        BIGINT  NOT NULL,
    day_used         INTEGER NOT NULL,
    search_day_start BIGINT  NOT NULL,
    searches_used    INTEGER NOT NULL,
    last_denied      TEXT    NOT NULL DEFAULT ''
);
