-- 0008: the colours of a member's own cards (his private message, the draw picker, the DMs of his cards):
-- four (the default: spades black, hearts red, diamonds blue, clubs green) or two (red and black).

ALTER TABLE member_settings ADD COLUMN four_colours INTEGER NOT NULL DEFAULT 1 CHECK (four_colours IN (0, 1));
