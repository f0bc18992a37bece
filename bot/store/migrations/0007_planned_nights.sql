-- 0006: planned nights (/poker night). Self-contained: it depends only on 0001's tables. Portable SQL (no
-- SQLite-only function, no JSON): every time is whole seconds since the epoch (starts_at) or seconds as a
-- DOUBLE PRECISION (moments the store stamps), every Discord id a BIGINT.

-- The time zone a server's hosts type their times in (an IANA name; none stored: UTC).
CREATE TABLE guild_time_zones (
    guild_id  BIGINT NOT NULL PRIMARY KEY,
    time_zone TEXT   NOT NULL CHECK (length(time_zone) BETWEEN 1 AND 64)
);

-- A night planned in a channel: the table it opens at its start, its Discord event and sign-up message, and
-- where it stands: planned, open (its table opened), done (the table closed), cancelled, or missed (the whole
-- night went by while the bot was away).
CREATE TABLE planned_nights (
    id             INTEGER PRIMARY KEY,
    guild_id       BIGINT  NOT NULL,
    channel_id     BIGINT  NOT NULL,
    host_id        BIGINT  NOT NULL,
    starts_at      BIGINT  NOT NULL,
    game           TEXT    NOT NULL,
    small_blind    BIGINT  NOT NULL CHECK (small_blind >= 0),
    big_blind      BIGINT  NOT NULL CHECK (big_blind >= 0),
    structure      TEXT,                                             -- NULL: each game's own
    buy_in         BIGINT  CHECK (buy_in IS NULL OR buy_in >= 1),    -- NULL: the table's default
    seats          INTEGER NOT NULL CHECK (seats >= 2),
    remind_minutes INTEGER NOT NULL CHECK (remind_minutes >= 0),
    notes          TEXT    CHECK (notes IS NULL OR length(notes) <= 1000),
    status         TEXT    NOT NULL DEFAULT 'planned'
                   CHECK (status IN ('planned', 'open', 'done', 'cancelled', 'missed')),
    event_id       BIGINT,                                           -- the Discord event (NULL: none)
    message_id     BIGINT,                                           -- the sign-up message
    table_id       INTEGER REFERENCES tables (id),                   -- the table it opened
    reminded_at    DOUBLE PRECISION,                                 -- its reminder time was handled
    created_at     DOUBLE PRECISION NOT NULL,
    ended_at       DOUBLE PRECISION,
    CHECK ((status IN ('done', 'cancelled', 'missed')) = (ended_at IS NOT NULL))
);

CREATE INDEX planned_nights_by_channel ON planned_nights (channel_id, status, starts_at);
CREATE INDEX planned_nights_by_guild ON planned_nights (guild_id, status, starts_at);
CREATE INDEX planned_nights_by_table ON planned_nights (table_id);

-- Each member's answer: in (I'm in), out (Can't make it), or interested (he marked the Discord event and tapped
-- nothing). answered_at orders the sign-ups (first come, first seated); reminded_at marks his reminder handled
-- (sent, or not sent because he turned alerts off), so that none is sent twice.
CREATE TABLE night_signups (
    night_id    INTEGER NOT NULL REFERENCES planned_nights (id),
    user_id     BIGINT  NOT NULL,
    answer      TEXT    NOT NULL CHECK (answer IN ('in', 'out', 'interested')),
    answered_at DOUBLE PRECISION NOT NULL,
    reminded_at DOUBLE PRECISION,
    PRIMARY KEY (night_id, user_id)
);
