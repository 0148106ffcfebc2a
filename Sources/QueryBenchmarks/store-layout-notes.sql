-- The writes benchmark's second SQLite baseline: the tables and indexes the SQLite store keeps
-- in development mode for its records (a `Note` with a title, a rank and a score), written by
-- hand. Development mode indexes every field for queries and sorts (a string three times: as
-- it is, case-insensitive, and case- and diacritic-insensitive) and every string for full-text
-- search, and it registers each record and logs each change for sync. Compare with what
-- `Store.open` creates (`sqlite3 STORE .schema`) when the store's layout changes.

CREATE TABLE notes (
    zone TEXT NOT NULL, recordName TEXT NOT NULL, creationDate REAL, modificationDate REAL,
    recordChangeTag TEXT, creator TEXT, lastModifier TEXT,
    rank, score, title, titleRaw TEXT, titleCaseless, titleFolded);
CREATE UNIQUE INDEX notes_record ON notes (zone, recordName);
CREATE INDEX notes_rank ON notes (zone, rank, recordName);
CREATE INDEX notes_score ON notes (zone, score, recordName);
CREATE INDEX notes_title ON notes (zone, title, recordName);
CREATE INDEX notes_title_caseless ON notes (zone, titleCaseless, recordName);
CREATE INDEX notes_title_folded ON notes (zone, titleFolded, recordName);

CREATE VIRTUAL TABLE notes_text USING fts5(body, tokenize = 'ascii', detail = none, columnsize = 0);

CREATE TABLE registry (
    zone TEXT NOT NULL, recordName TEXT NOT NULL, recordType TEXT NOT NULL, position INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (zone, recordName)) WITHOUT ROWID;
CREATE INDEX registry_position ON registry (zone, position, recordName);

CREATE TABLE zones (name TEXT PRIMARY KEY NOT NULL, position INTEGER NOT NULL DEFAULT 0);
CREATE INDEX zones_position ON zones (position, name);
INSERT INTO zones (name) VALUES ('bench-0');

CREATE TABLE changes (sequence INTEGER PRIMARY KEY AUTOINCREMENT, changes BLOB NOT NULL);
