-- Bulwark block monitor, schema version 1. Standard SQL read by both engines (H2 and PostgreSQL).
-- Times are milliseconds since the epoch; an interval with gone_since NULL is still open.
CREATE TABLE namespace (id INT PRIMARY KEY, uri VARCHAR(1024) NOT NULL UNIQUE);
CREATE TABLE datanode (id INT PRIMARY KEY, uuid VARCHAR(64) NOT NULL UNIQUE, host VARCHAR(512) NOT NULL,
  xfer_addr VARCHAR(512) NOT NULL, rack VARCHAR(1024) NOT NULL);
CREATE TABLE storage (id INT PRIMARY KEY, datanode_id INT NOT NULL, storage_uuid VARCHAR(128) NOT NULL UNIQUE,
  storage_type VARCHAR(16) NOT NULL);
CREATE TABLE replica_interval (namespace_id INT NOT NULL, block_id BIGINT NOT NULL, storage_id INT NOT NULL,
  first_seen BIGINT NOT NULL, gone_since BIGINT);
CREATE INDEX replica_by_block ON replica_interval (namespace_id, block_id);
CREATE INDEX replica_by_storage ON replica_interval (storage_id, first_seen DESC);
CREATE TABLE block_file (namespace_id INT NOT NULL, block_id BIGINT NOT NULL, file_id BIGINT NOT NULL,
  path VARCHAR(4096) NOT NULL, first_seen BIGINT NOT NULL, gone_since BIGINT);
CREATE INDEX block_file_by_block ON block_file (namespace_id, block_id);
CREATE INDEX block_file_by_path ON block_file (path);
CREATE TABLE datanode_state (datanode_id INT NOT NULL, state VARCHAR(32) NOT NULL, capacity BIGINT NOT NULL,
  used BIGINT NOT NULL, first_seen BIGINT NOT NULL, gone_since BIGINT);
CREATE INDEX datanode_state_by_datanode ON datanode_state (datanode_id, first_seen);
CREATE TABLE block_event (namespace_id INT NOT NULL, block_id BIGINT NOT NULL, kind VARCHAR(16) NOT NULL,
  first_seen BIGINT NOT NULL, resolved_at BIGINT);
CREATE INDEX block_event_open ON block_event (resolved_at, namespace_id, block_id);
CREATE TABLE poll (namespace_id INT NOT NULL, started BIGINT NOT NULL, finished BIGINT NOT NULL, files BIGINT NOT NULL,
  blocks BIGINT NOT NULL, replicas BIGINT NOT NULL, rpcs BIGINT NOT NULL);
CREATE INDEX poll_by_finished ON poll (finished);
