-- 0004 for PostgreSQL (0004_members_and_posts.sql in PostgreSQL's terms): a member's own settings in a server, and
-- the nonce of a table message being posted.

CREATE TABLE member_settings (
    guild_id    BIGINT  NOT NULL,
    user_id     BIGINT  NOT NULL,
    turn_alerts INTEGER NOT NULL DEFAULT 1 CHECK (turn_alerts IN (0, 1)),
    PRIMARY KEY (guild_id, user_id)
);

ALTER TABLE tables ADD COLUMN message_nonce TEXT CHECK (message_nonce IS NULL OR length(message_nonce) <= 25);
