-- The website's own content: feed hubs (a fixed filter each) and articles
-- written in Markdown. Times are nanoseconds since the Unix epoch (UTC).
CREATE TABLE hubs (
    slug        TEXT PRIMARY KEY,
    title       TEXT NOT NULL,
    description TEXT NOT NULL,
    filter      TEXT NOT NULL
);

CREATE TABLE articles (
    slug         TEXT    PRIMARY KEY,
    title        TEXT    NOT NULL,
    summary      TEXT    NOT NULL,
    published_ns BIGINT  NOT NULL,
    body         TEXT    NOT NULL
);
