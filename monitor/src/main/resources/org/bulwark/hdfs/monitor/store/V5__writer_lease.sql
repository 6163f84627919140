-- Bulwark block monitor, schema version 5: one writer per store. The single row names the store instance that
-- may write (a random id per open, with its host and process: the machine's boot and process namespace, the
-- process's start) and when it took and last renewed the lease, by the database's clock; instance NULL: no
-- monitor writes. Every write transaction renews it first, and finds out there that another monitor has taken
-- the store over (see WriterLease).
CREATE TABLE writer_lease (lease_name VARCHAR(16) PRIMARY KEY, instance VARCHAR(36), host VARCHAR(255), pid BIGINT,
  machine VARCHAR(255), process_start BIGINT, acquired_at TIMESTAMP WITH TIME ZONE, renewed_at TIMESTAMP WITH TIME ZONE);
INSERT INTO writer_lease (lease_name) VALUES ('writer');
