-- Tournaments (sit-and-go nights with rising blinds). Self-contained: it depends only on 0001's tables.
--
-- A tournament is played at a table of its own (one tournament per table, for the table's whole life). Its
-- seat stacks are tournament chips, not bank chips: a registration (and each rebuy) moves the buy-in from the
-- member's balance into the tournament's prize pool (`pool`) and gives the seat `starting_chips` tournament
-- chips; the pool is paid out to balances when the tournament ends, or every buy-in and rebuy returned when it
-- is cancelled. Ledger rows of a tournament carry its table's id (the table is the tournament's) and one of the
-- kinds below. The audit counts prize pools with the balances, and a tournament table's stacks and carried
-- pot as tournament chips.

INSERT INTO ledger_kinds (kind, sign, mint, description) VALUES
    ('tournament-buy-in', -1, 0, 'a tournament''s buy-in, paid into its prize pool'),
    ('tournament-rebuy', -1, 0, 'a tournament rebuy, paid into its prize pool'),
    ('tournament-prize', 1, 0, 'a prize paid from a tournament''s prize pool'),
    ('tournament-refund', 1, 0, 'a buy-in or rebuy returned from a tournament''s prize pool');

CREATE TABLE tournaments (
    id             INTEGER PRIMARY KEY,
    guild_id       INTEGER NOT NULL,
    table_id       INTEGER NOT NULL UNIQUE REFERENCES tables (id),
    buy_in         INTEGER NOT NULL CHECK (buy_in >= 0),
    starting_chips INTEGER NOT NULL CHECK (starting_chips >= 1),
    status         TEXT    NOT NULL DEFAULT 'registering'
                   CHECK (status IN ('registering', 'running', 'finished', 'cancelled')),
    pool           INTEGER NOT NULL DEFAULT 0 CHECK (pool >= 0),   -- bank chips held until paid out
    state          TEXT    NOT NULL CHECK (json_valid(state)),     -- the table layer's tournament (its clock...)
    message_id     INTEGER,                                        -- the registration message (the Discord side's)
    announced      INTEGER NOT NULL DEFAULT 0 CHECK (announced IN (0, 1)),  -- the final standings were posted
    created_at     REAL    NOT NULL,
    ended_at       REAL,
    CHECK ((status IN ('finished', 'cancelled')) = (ended_at IS NOT NULL)),
    CHECK (status IN ('registering', 'running') OR pool = 0)
);

CREATE INDEX tournaments_by_guild ON tournaments (guild_id, status);

-- Who entered, how often he rebought, and the prize he was paid (NULL until the payout). A member who
-- unregisters before the start is removed (his buy-in and its refund stay in the ledger).
CREATE TABLE tournament_entries (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    user_id       INTEGER NOT NULL,
    rebuys        INTEGER NOT NULL DEFAULT 0 CHECK (rebuys >= 0),
    prize         INTEGER CHECK (prize >= 0),
    registered_at REAL    NOT NULL,
    PRIMARY KEY (tournament_id, user_id)
) WITHOUT ROWID;
