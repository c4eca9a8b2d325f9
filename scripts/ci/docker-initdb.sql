-- Run once by the postgres image's entrypoint (docker-compose.yml mounts this
-- file into /docker-entrypoint-initdb.d/) when the data volume is new.
-- Gives Docker users the same databases as scripts/ci/setup-postgres.sh:
--   postgres://engram:engram@127.0.0.1:5432/engram       (dev)
--   postgres://engram:engram@127.0.0.1:5432/engram_test  (DATABASE_URL for npm test)
CREATE DATABASE engram_test OWNER engram ENCODING 'UTF8' TEMPLATE template0;
\connect engram
CREATE EXTENSION IF NOT EXISTS vector;
\connect engram_test
CREATE EXTENSION IF NOT EXISTS vector;
