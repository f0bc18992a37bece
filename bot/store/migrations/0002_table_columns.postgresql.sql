-- 0002 for PostgreSQL (0002_table_columns.sql in PostgreSQL's terms): the table message's id, each seat's
-- closed-DM flag and the hand of its last timeout become columns; old `_meta` values of the settings are moved.

ALTER TABLE tables ADD COLUMN message_id BIGINT;
ALTER TABLE seats ADD COLUMN dms_closed INTEGER NOT NULL DEFAULT 0 CHECK (dms_closed IN (0, 1));
ALTER TABLE seats ADD COLUMN timed_out_hand BIGINT REFERENCES hands (id);

UPDATE tables SET message_id = CAST(settings #>> '{_meta,message}' AS BIGINT)
WHERE json_typeof(settings #> '{_meta,message}') = 'number';

UPDATE seats SET dms_closed = 1
WHERE EXISTS (
    SELECT 1 FROM tables t, json_array_elements_text(t.settings #> '{_meta,dms_closed}') j
    WHERE t.id = seats.table_id AND json_typeof(t.settings #> '{_meta,dms_closed}') = 'array'
      AND j.value = CAST(seats.user_id AS TEXT)
);

UPDATE seats SET timed_out_hand = (
    SELECT CAST(t.settings #>> '{_meta,timed_out,hand}' AS BIGINT)
    FROM tables t, json_array_elements_text(t.settings #> '{_meta,timed_out,users}') j
    WHERE t.id = seats.table_id AND json_typeof(t.settings #> '{_meta,timed_out,users}') = 'array'
      AND j.value = CAST(seats.user_id AS TEXT)
      AND EXISTS (SELECT 1 FROM hands h WHERE CAST(h.id AS TEXT) = t.settings #>> '{_meta,timed_out,hand}')
    LIMIT 1
);

UPDATE tables SET settings = CAST(CAST(settings AS jsonb) - '_meta' AS json) WHERE settings -> '_meta' IS NOT NULL;
