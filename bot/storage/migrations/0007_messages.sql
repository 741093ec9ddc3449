-- A table's messages in its channel (the table message, what stays of it, a game's own
-- messages such as Maya's accusations), kept by the Discord layer apart from the game:
-- storing a message id writes this column alone.
ALTER TABLE games ADD COLUMN messages_json {json};
