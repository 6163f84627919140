-- Bulwark block monitor, schema version 4: a namespace is known by its block pool too. The same block pool
-- reached at another URI (HA enabled: hdfs://nn1:8020 becomes hdfs://ns1; a NameNode moved) keeps its
-- history; another block pool at a known URI (the namespace formatted again, its block ids counted anew)
-- starts a history of its own. NULL until the monitor has seen one of the namespace's blocks.
ALTER TABLE namespace ADD COLUMN block_pool VARCHAR(256);
