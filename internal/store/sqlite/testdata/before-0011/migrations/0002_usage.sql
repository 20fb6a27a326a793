-- Request and search usage per account in its current windows. A window whose
-- start is not the current one counts as empty.
CREATE TABLE usage (
    account_id       INTEGER PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
    minute_start     INTEGER NOT NULL,
    minute_used      INTEGER NOT NULL,
    day_start        INTEGER NOT NULL,
    day_used         INTEGER NOT NULL,
    search_day_start INTEGER NOT NULL,
    searches_used    INTEGER NOT NULL
);
