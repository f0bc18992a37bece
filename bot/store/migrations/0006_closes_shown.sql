-- 0006: a closed table keeps its message_id until the bot has shown "Table closed" on that message (it then
-- clears it), so that a bot stopped between storing a close and showing it finds the message at its next start
-- and takes its buttons away. Every table closed before this version was shown closed already.

UPDATE tables SET message_id = NULL, message_nonce = NULL WHERE status = 'closed';
