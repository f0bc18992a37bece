-- 0002: what the Discord side keeps about a table becomes columns instead of the settings JSON's `_meta`:
-- the table message's id, each seat's closed-DM flag, and the hand in which a seat last timed out (the
-- two-timeouts rule counts it when that hand ends). The old `_meta` values are moved, then dropped.

ALTER TABLE tables ADD COLUMN message_id INTEGER;
ALTER TABLE seats ADD COLUMN dms_closed INTEGER NOT NULL DEFAULT 0 CHECK (dms_closed IN (0, 1));
ALTER TABLE seats ADD COLUMN timed_out_hand INTEGER REFERENCES hands (id);

UPDATE tables SET message_id = json_extract(settings, '$._meta.message')
WHERE json_type(settings, '$._meta.message') = 'integer';

UPDATE seats SET dms_closed = 1
WHERE EXISTS (
    SELECT 1 FROM tables t, json_each(t.settings, '$._meta.dms_closed') j
    WHERE t.id = seats.table_id AND j.value = seats.user_id
);

UPDATE seats SET timed_out_hand = (
    SELECT json_extract(t.settings, '$._meta.timed_out.hand')
    FROM tables t, json_each(t.settings, '$._meta.timed_out.users') j
    WHERE t.id = seats.table_id AND j.value = seats.user_id
      AND EXISTS (SELECT 1 FROM hands h WHERE h.id = json_extract(t.settings, '$._meta.timed_out.hand'))
);

UPDATE tables SET settings = json_remove(settings, '$._meta') WHERE json_type(settings, '$._meta') IS NOT NULL;
