-- Bulwark block monitor, schema version 2: what the charts draw over time. Each poll row also keeps the
-- namespace's missing and corrupt blocks and its blocks by number of racks; rack_fill keeps each rack's
-- capacity and use at every poll. Rows of polls before this version read 0.
ALTER TABLE poll ADD COLUMN missing BIGINT DEFAULT 0 NOT NULL;
ALTER TABLE poll ADD COLUMN corrupt BIGINT DEFAULT 0 NOT NULL;
ALTER TABLE poll ADD COLUMN blocks_one_rack BIGINT DEFAULT 0 NOT NULL;
ALTER TABLE poll ADD COLUMN blocks_two_racks BIGINT DEFAULT 0 NOT NULL;
ALTER TABLE poll ADD COLUMN blocks_more_racks BIGINT DEFAULT 0 NOT NULL;
CREATE TABLE rack_fill (finished BIGINT NOT NULL, rack VARCHAR(1024) NOT NULL, capacity BIGINT NOT NULL,
  used BIGINT NOT NULL);
CREATE INDEX rack_fill_by_finished ON rack_fill (finished);
