-- 0003: sessions (a night at a table, from /poker create or /poker session new to the next one or /poker close),
-- the session of every hand and of every ledger row of a table, and what each player did in each finished hand
-- (bot.night.facts), kept for /poker stats and the leaderboards by period.
--
-- An existing table gets one session, covering its hands and ledger rows: from its creation to its closing.

CREATE TABLE sessions (
    id         INTEGER PRIMARY KEY,
    table_id   INTEGER NOT NULL REFERENCES tables (id),
    number     INTEGER NOT NULL CHECK (number >= 1),      -- 1, 2, 3... within the table
    started_at REAL    NOT NULL,
    ended_at   REAL,
    UNIQUE (table_id, number),
    CHECK (ended_at IS NULL OR ended_at >= started_at)
);

-- At most one running session per table.
CREATE UNIQUE INDEX sessions_one_open_per_table ON sessions (table_id) WHERE ended_at IS NULL;

INSERT INTO sessions (table_id, number, started_at, ended_at)
SELECT id, 1, created_at, closed_at FROM tables ORDER BY id;

ALTER TABLE hands ADD COLUMN session_id INTEGER REFERENCES sessions (id);
UPDATE hands SET session_id = (SELECT s.id FROM sessions s WHERE s.table_id = hands.table_id);
CREATE INDEX hands_by_session ON hands (session_id, number);

-- The ledger is append-only: its guard against updates is lifted for this one backfill, then put back as it was.
ALTER TABLE ledger ADD COLUMN session_id INTEGER REFERENCES sessions (id);
DROP TRIGGER ledger_no_update;
UPDATE ledger SET session_id = (SELECT s.id FROM sessions s WHERE s.table_id = ledger.table_id)
WHERE table_id IS NOT NULL;
CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger
BEGIN
    SELECT RAISE(ABORT, 'the ledger is append-only: rows cannot be changed');
END;
CREATE INDEX ledger_by_session ON ledger (session_id, user_id) WHERE session_id IS NOT NULL;

-- Write-time guards: a row of a table, and a hand, belong to the table's running session.
CREATE TRIGGER ledger_session_checks BEFORE INSERT ON ledger
BEGIN
    SELECT RAISE(ABORT, 'a ledger row of a table must name the table''s running session')
    WHERE (NEW.table_id IS NULL) != (NEW.session_id IS NULL)
       OR (NEW.session_id IS NOT NULL AND NOT EXISTS (
            SELECT 1 FROM sessions WHERE id = NEW.session_id AND table_id = NEW.table_id AND ended_at IS NULL));
END;

CREATE TRIGGER hands_session_checks BEFORE INSERT ON hands
BEGIN
    SELECT RAISE(ABORT, 'a hand must belong to its table''s running session')
    WHERE NOT EXISTS (
        SELECT 1 FROM sessions WHERE id = NEW.session_id AND table_id = NEW.table_id AND ended_at IS NULL);
END;

-- One row per player dealt into a finished hand, written in the same transaction as the hand's result
-- (bot.night.facts.PlayerHandFacts: the columns from user_id on are its fields, in order). guild_id, session_id
-- and ended_at are the hand's, copied so that a player's stats and a period's nets read this table alone.
CREATE TABLE hand_facts (
    hand_id         INTEGER NOT NULL REFERENCES hands (id),
    session_id      INTEGER NOT NULL REFERENCES sessions (id),
    guild_id        INTEGER NOT NULL,
    ended_at        REAL    NOT NULL,
    user_id         INTEGER NOT NULL,
    game            TEXT    NOT NULL,
    seat            INTEGER NOT NULL CHECK (seat >= 0),
    dealt           INTEGER NOT NULL CHECK (dealt = 1),
    vpip            INTEGER NOT NULL CHECK (vpip IN (0, 1)),
    raised          INTEGER NOT NULL CHECK (raised IN (0, 1) AND raised <= vpip),
    showdown        INTEGER NOT NULL CHECK (showdown IN (0, 1)),
    won             INTEGER NOT NULL CHECK (won IN (0, 1)),
    won_at_showdown INTEGER NOT NULL CHECK (won_at_showdown IN (0, 1) AND won_at_showdown <= won),
    draws           INTEGER NOT NULL CHECK (draws >= 0),
    cards_drawn     INTEGER NOT NULL CHECK (cards_drawn >= 0),
    pats            INTEGER NOT NULL CHECK (pats BETWEEN 0 AND draws),
    collected       INTEGER NOT NULL CHECK (collected >= 0),
    net             INTEGER NOT NULL,
    PRIMARY KEY (hand_id, seat),
    UNIQUE (hand_id, user_id)
) WITHOUT ROWID;

-- A member's stats (bot.night.stats: one aggregate query, grouped by game): a covering index, so the query reads
-- the member's entries of this index only, in game order (bench/bench_night.py measured it against no index and
-- an index on (user_id, game) alone).
CREATE INDEX hand_facts_by_player ON hand_facts (
    guild_id, user_id, game, session_id, vpip, raised, showdown, won, won_at_showdown, draws, cards_drawn, pats,
    collected, net
);
-- The nets of a session (a night's leaderboard) and of a period (this month, all time), covering too.
CREATE INDEX hand_facts_by_session ON hand_facts (session_id, guild_id, user_id, net);
CREATE INDEX hand_facts_by_time ON hand_facts (guild_id, ended_at, user_id, net);
