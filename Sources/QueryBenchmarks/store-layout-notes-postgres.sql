-- The writes benchmark's second PostgreSQL baseline: the tables and indexes the PostgreSQL store
-- keeps in development mode for its records (a `Note` with a title, a rank and a score), written
-- by hand into the connection's schema (its search_path). Development mode indexes every field for
-- queries and sorts (a string three times: as it is, case-insensitive, and case- and
-- diacritic-insensitive), keeps a full-text vector of a record's strings under a GIN index, and
-- registers each record with its change position for sync. Compare with what `Store.open` creates
-- (`\d "Note"` in psql) when the store's layout changes.

CREATE TABLE notes (
    row bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY WITH (fillfactor = 100),
    "creationDate" double precision, "modificationDate" double precision, rank bigint, score double precision,
    zone text COLLATE "C" NOT NULL, "recordName" text COLLATE "C" NOT NULL, "recordChangeTag" text COLLATE "C",
    creator text COLLATE "C", "lastModifier" text COLLATE "C",
    title text COLLATE "C", "titleRaw" text COLLATE "C", "titleCaseless" text COLLATE "C", "titleFolded" text COLLATE "C",
    "fullText" tsvector NOT NULL DEFAULT '',
    UNIQUE (zone, "recordName") WITH (fillfactor = 100));
CREATE INDEX notes_rank ON notes (zone, rank NULLS FIRST, "recordName") WITH (fillfactor = 100);
CREATE INDEX notes_score ON notes (zone, score NULLS FIRST, "recordName") WITH (fillfactor = 100);
CREATE INDEX notes_title ON notes (zone, title NULLS FIRST) WITH (fillfactor = 100);
CREATE INDEX notes_title_caseless ON notes (zone, "titleCaseless" NULLS FIRST) WITH (fillfactor = 100);
CREATE INDEX notes_title_folded ON notes (zone, (COALESCE("titleFolded", "titleCaseless")) NULLS FIRST) WITH (fillfactor = 100);
CREATE INDEX notes_full_text ON notes USING gin ("fullText");

CREATE TABLE registry (
    zone text COLLATE "C" NOT NULL, "recordName" text COLLATE "C" NOT NULL, "recordType" text COLLATE "C" NOT NULL,
    position bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (zone, "recordName") WITH (fillfactor = 100));
CREATE INDEX registry_position ON registry (zone, position) WITH (fillfactor = 100);

CREATE TABLE zones (name text COLLATE "C" PRIMARY KEY, position bigint NOT NULL DEFAULT 0);
INSERT INTO zones (name) VALUES ('bench-0');
