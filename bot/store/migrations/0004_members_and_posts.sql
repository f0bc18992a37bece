-- 0004: what a member chooses for himself in a server (whether his turn is announced to him by DM), and the
-- table message being posted: its nonce is stored before the post, so that a bot stopped between Discord
-- creating the message and the store learning its id finds it again (the same nonce posted again returns it).

CREATE TABLE member_settings (
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    turn_alerts INTEGER NOT NULL DEFAULT 1 CHECK (turn_alerts IN (0, 1)),
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;

ALTER TABLE tables ADD COLUMN message_nonce TEXT CHECK (message_nonce IS NULL OR length(message_nonce) <= 25);
