-- Two roles for Engram on a PostgreSQL server (docs/append-only.md), run as a superuser
-- in the database Engram uses (idempotent):
--   engram_owner  owns the tables: migrations, grants, erasure's VACUUM FULL
--                 DATABASE_OWNER_URL=postgres://engram_owner:engram_owner@127.0.0.1:5432/engram
--   engram_app    the service: no owner, no superuser; cannot alter or drop triggers, update
--                 content, delete the audit log or un-revoke a token
--                 DATABASE_URL=postgres://engram_app:engram_app@127.0.0.1:5432/engram
-- Change the passwords on anything but a development machine.
DO $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'engram_owner') THEN
    CREATE ROLE engram_owner LOGIN NOSUPERUSER PASSWORD 'engram_owner';
  END IF;
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'engram_app') THEN
    CREATE ROLE engram_app LOGIN NOSUPERUSER PASSWORD 'engram_app';
  END IF;
END
$$;
CREATE EXTENSION IF NOT EXISTS vector;
CREATE SCHEMA IF NOT EXISTS engram AUTHORIZATION engram_owner;
DO $$
BEGIN
  EXECUTE format('ALTER ROLE engram_owner IN DATABASE %I SET search_path = engram, public', current_database());
  EXECUTE format('ALTER ROLE engram_app IN DATABASE %I SET search_path = engram, public', current_database());
END
$$;
-- Erasure after a forget (docs/erasure.md): a WAL switch and a checkpoint, and segments
-- removed instead of recycled (their old bytes would otherwise stay on disk).
GRANT pg_checkpoint TO engram_owner;
GRANT EXECUTE ON FUNCTION pg_switch_wal() TO engram_owner;
ALTER SYSTEM SET wal_recycle = off;
SELECT pg_reload_conf();
