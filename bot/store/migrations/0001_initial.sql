-- 0001: the chip bank (accounts + append-only ledger), tables, seats, hands and their action logs.
--
-- Conventions: Discord ids (guild, channel, user, role) are INTEGER snowflakes; chip amounts are
-- INTEGER; times are REAL Unix seconds from the store's clock; JSON columns hold compact JSON text.

-- Per-guild settings. A guild without a row uses the defaults.
CREATE TABLE guild_settings (
    guild_id         INTEGER PRIMARY KEY,
    starting_balance INTEGER NOT NULL DEFAULT 1000 CHECK (starting_balance BETWEEN 0 AND 1000000000000),
    banker_role_id   INTEGER
);

-- The kinds of ledger rows. `sign` is +1 for credits, -1 for debits. `mint` marks the kinds that
-- bring chips into or take them out of a guild's economy (the rest move chips between accounts,
-- seats and carried pots); `audit` checks that minted chips equal the chips that exist.
-- A later migration can add a kind with a plain INSERT.
CREATE TABLE ledger_kinds (
    kind        TEXT PRIMARY KEY,
    sign        INTEGER NOT NULL CHECK (sign IN (-1, 1)),
    mint        INTEGER NOT NULL CHECK (mint IN (0, 1)),
    description TEXT NOT NULL
) WITHOUT ROWID;

INSERT INTO ledger_kinds (kind, sign, mint, description) VALUES
    ('starting-grant', 1, 1, 'the starting balance, when the account is opened'),
    ('admin-grant', 1, 1, 'chips given by a banker'),
    ('admin-removal', -1, 1, 'chips taken away by a banker'),
    ('transfer-in', 1, 0, 'chips received from another member'),
    ('transfer-out', -1, 0, 'chips sent to another member'),
    ('buy-in', -1, 0, 'chips taken to a seat at a table'),
    ('rebuy', -1, 0, 'chips added to an empty stack between hands'),
    ('top-up', -1, 0, 'chips added to a stack between hands'),
    ('cash-out', 1, 0, 'a stack brought back from a table'),
    ('carried-refund', 1, 0, 'a share of a carried pot returned when it could not be played');

CREATE TABLE accounts (
    guild_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    balance    INTEGER NOT NULL CHECK (balance >= 0),
    created_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;

CREATE INDEX accounts_by_balance ON accounts (guild_id, balance DESC);

CREATE TABLE tables (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    host_id     INTEGER NOT NULL,
    settings    TEXT    NOT NULL CHECK (json_valid(settings)),
    status      TEXT    NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'paused', 'closed')),
    button      INTEGER,                      -- the seat_no holding the button; NULL before the first hand
    carried_pot INTEGER NOT NULL DEFAULT 0 CHECK (carried_pot >= 0),
    created_at  REAL    NOT NULL,
    closed_at   REAL,
    CHECK ((status = 'closed') = (closed_at IS NOT NULL))
);

-- One open (or paused) table per channel; closed tables stay as history.
CREATE UNIQUE INDEX tables_one_per_channel ON tables (channel_id) WHERE status != 'closed';
CREATE INDEX tables_by_guild ON tables (guild_id, status);

CREATE TABLE seats (
    table_id    INTEGER NOT NULL REFERENCES tables (id),
    seat_no     INTEGER NOT NULL CHECK (seat_no >= 1),
    user_id     INTEGER NOT NULL,
    stack       INTEGER NOT NULL CHECK (stack >= 0),
    sitting_out INTEGER NOT NULL DEFAULT 0 CHECK (sitting_out IN (0, 1)),
    leaving     INTEGER NOT NULL DEFAULT 0 CHECK (leaving IN (0, 1)),
    timeouts    INTEGER NOT NULL DEFAULT 0 CHECK (timeouts >= 0),
    joined_at   REAL    NOT NULL,
    PRIMARY KEY (table_id, seat_no),
    UNIQUE (table_id, user_id)
) WITHOUT ROWID;

CREATE TABLE hands (
    id            INTEGER PRIMARY KEY,
    table_id      INTEGER NOT NULL REFERENCES tables (id),
    number        INTEGER NOT NULL CHECK (number >= 1),    -- 1, 2, 3... within the table
    game          TEXT    NOT NULL,
    settings      TEXT    NOT NULL CHECK (json_valid(settings)),   -- stakes, options, button...
    seed          INTEGER NOT NULL,
    seats         TEXT    NOT NULL CHECK (json_valid(seats)),      -- [user_id per engine seat]
    stacks_before TEXT    NOT NULL CHECK (json_valid(stacks_before)),
    carried_in    INTEGER NOT NULL DEFAULT 0 CHECK (carried_in >= 0),
    status        TEXT    NOT NULL DEFAULT 'live' CHECK (status IN ('live', 'complete', 'void')),
    stacks_after  TEXT    CHECK (stacks_after IS NULL OR json_valid(stacks_after)),
    carried_out   INTEGER CHECK (carried_out >= 0),
    result        TEXT    CHECK (result IS NULL OR json_valid(result)),
    phh           TEXT,
    void_reason   TEXT,
    started_at    REAL    NOT NULL,
    ended_at      REAL,
    UNIQUE (table_id, number),
    CHECK ((status = 'live') = (ended_at IS NULL)),
    CHECK ((status = 'complete') = (stacks_after IS NOT NULL AND carried_out IS NOT NULL))
);

-- At most one live hand per table.
CREATE UNIQUE INDEX hands_one_live_per_table ON hands (table_id) WHERE status = 'live';

-- The players' actions of a hand, in order: seq is the 0-based index in the engine's `Hand.actions`.
CREATE TABLE hand_actions (
    hand_id    INTEGER NOT NULL REFERENCES hands (id),
    seq        INTEGER NOT NULL CHECK (seq >= 0),
    action     TEXT    NOT NULL,
    created_at REAL    NOT NULL,
    PRIMARY KEY (hand_id, seq)
) WITHOUT ROWID;

-- Every chip movement of an account, append-only. balance_after chains the rows of one account:
-- balance_after = previous balance_after + delta, and the last one equals accounts.balance.
CREATE TABLE ledger (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,
    delta         INTEGER NOT NULL,
    balance_after INTEGER NOT NULL CHECK (balance_after >= 0),
    kind          TEXT    NOT NULL REFERENCES ledger_kinds (kind),
    reference     TEXT,                         -- free text: an admin's reason, "table 4", "hand 17"...
    counterparty  INTEGER,                      -- the other member of a transfer, the banker of a grant
    table_id      INTEGER REFERENCES tables (id),
    hand_id       INTEGER REFERENCES hands (id),
    created_at    REAL    NOT NULL,
    FOREIGN KEY (guild_id, user_id) REFERENCES accounts (guild_id, user_id),
    CHECK (delta != 0 OR kind = 'starting-grant')
);

CREATE INDEX ledger_by_account ON ledger (guild_id, user_id, id);
CREATE INDEX ledger_by_table ON ledger (table_id) WHERE table_id IS NOT NULL;

-- Write-time guards (the audit checks the same things after the fact): the sign of a row matches
-- its kind, and balance_after continues the account's chain.
CREATE TRIGGER ledger_checks BEFORE INSERT ON ledger
BEGIN
    SELECT RAISE(ABORT, 'ledger row has the wrong sign for its kind')
    WHERE NEW.delta * (SELECT sign FROM ledger_kinds WHERE kind = NEW.kind) < 0;
    SELECT RAISE(ABORT, 'ledger row does not continue the account''s balance chain')
    WHERE NEW.balance_after != NEW.delta + coalesce(
        (SELECT balance_after FROM ledger
         WHERE guild_id = NEW.guild_id AND user_id = NEW.user_id ORDER BY id DESC LIMIT 1), 0);
END;

CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger
BEGIN
    SELECT RAISE(ABORT, 'the ledger is append-only: rows cannot be changed');
END;

CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger
BEGIN
    SELECT RAISE(ABORT, 'the ledger is append-only: rows cannot be deleted');
END;

CREATE TRIGGER hand_actions_no_update BEFORE UPDATE ON hand_actions
BEGIN
    SELECT RAISE(ABORT, 'a hand''s action log is append-only');
END;

CREATE TRIGGER hand_actions_no_delete BEFORE DELETE ON hand_actions
BEGIN
    SELECT RAISE(ABORT, 'a hand''s action log is append-only');
END;
