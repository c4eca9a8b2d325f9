#!/usr/bin/env bash
# Install and start PostgreSQL 15 with pgvector (>= 0.8.0) for Engram's tests.
#
# Debian 12 (bookworm) only; run as root (or as a user with sudo). Idempotent:
# every step checks first and skips what is already done, so running it again
# on the same machine is cheap (a few seconds).
#
#   1. apt-get install postgresql-15 postgresql-server-dev-15 + build tools
#   2. pgvector: bookworm has no pgvector >= 0.8, so build Debian trixie's
#      *source* package against PostgreSQL 15. Only a deb-src line is added for
#      trixie (no deb line), so apt never sees trixie binaries.
#   3. create/start cluster 15/main on 127.0.0.1:$PG_PORT (pg_createcluster /
#      pg_ctlcluster; the server daemonises and outlives this script)
#   4. role engram/engram (SUPERUSER, tests create the vector extension),
#      databases engram_test and engram (UTF8), extension vector in both;
#      in engram, roles engram_owner (migrations) and engram_app (the service):
#      scripts/ci/engram-roles.sql
#
# Afterwards: DATABASE_URL=postgres://engram:engram@127.0.0.1:5432/engram_test
#
# Environment knobs (all optional):
#   PG_PORT=5432              cluster port
#   PG_CLUSTER=main           cluster name (Debian pg_createcluster)
#   ENGRAM_PG_FAST=1          fsync/synchronous_commit/full_page_writes off
#                             (throwaway CI databases only)
#   PGVECTOR_MIN=0.8.0        minimum acceptable pgvector version
#   DEBIAN_SRC_MIRROR=http://deb.debian.org/debian   where trixie sources come from
set -euo pipefail

PG_MAJOR=15
PG_CLUSTER="${PG_CLUSTER:-main}"
PG_PORT="${PG_PORT:-5432}"
PG_BIN="/usr/lib/postgresql/${PG_MAJOR}/bin"
PG_CONFIG="${PG_BIN}/pg_config"
DB_USER=engram
DB_PASSWORD=engram
DB_NAMES=(engram_test engram)
PGVECTOR_MIN="${PGVECTOR_MIN:-0.8.0}"
DEBIAN_SRC_MIRROR="${DEBIAN_SRC_MIRROR:-http://deb.debian.org/debian}"
TRIXIE_SRC_LIST=/etc/apt/sources.list.d/engram-trixie-src.list

log() { printf '[setup-postgres %s] %s\n' "$(date +%H:%M:%S)" "$*"; }
die() { log "ERROR: $*" >&2; exit 1; }

if [[ ${EUID} -eq 0 ]]; then
  SUDO=()
  as_postgres() { runuser -u postgres -- "$@"; }
elif command -v sudo >/dev/null 2>&1; then
  SUDO=(sudo)
  as_postgres() { sudo -u postgres -- "$@"; }
else
  die "run as root (or install sudo)"
fi

export DEBIAN_FRONTEND=noninteractive
APT_GET=("${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -y -q
  -o DPkg::Lock::Timeout=300
  -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold)

# --------------------------------------------------------------------------
# 1. packages
# --------------------------------------------------------------------------
APT_UPDATED=0
apt_update() {
  log "apt-get update"
  "${APT_GET[@]}" update >/dev/null
  APT_UPDATED=1
}

pkg_installed() {
  [[ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null || true)" == installed ]]
}

# Debian's paths for PostgreSQL ${PG_MAJOR} (= pg_config --sharedir / --pkglibdir)
VECTOR_CONTROL="/usr/share/postgresql/${PG_MAJOR}/extension/vector.control"
VECTOR_SO="/usr/lib/postgresql/${PG_MAJOR}/lib/vector.so"
pgvector_version() {
  [[ -f ${VECTOR_CONTROL} ]] || return 0
  sed -n "s/^default_version[[:space:]]*=[[:space:]]*'\([^']*\)'.*/\1/p" "${VECTOR_CONTROL}"
}
version_ok() { [[ -n $1 ]] && dpkg --compare-versions "$1" ge "${PGVECTOR_MIN}"; }

have="$(pgvector_version)"
NEED_PGVECTOR=1
if version_ok "${have}" && [[ -f ${VECTOR_SO} ]]; then NEED_PGVECTOR=0; fi
if ((NEED_PGVECTOR)) && ! grep -qs "^deb-src .* trixie main" "${TRIXIE_SRC_LIST}"; then
  # Source only (deb-src, no deb line): binary packages keep coming from
  # bookworm; apt-get source is the only thing that looks at trixie.
  printf '# Added by engram scripts/ci/setup-postgres.sh: source packages only (pgvector)\ndeb-src %s trixie main\n' \
    "${DEBIAN_SRC_MIRROR}" | "${SUDO[@]}" tee "${TRIXIE_SRC_LIST}" >/dev/null
fi

PKGS=("postgresql-${PG_MAJOR}" "postgresql-client-${PG_MAJOR}" "postgresql-server-dev-${PG_MAJOR}"
  build-essential dpkg-dev ca-certificates)
missing=()
for p in "${PKGS[@]}"; do pkg_installed "$p" || missing+=("$p"); done
if ((${#missing[@]})); then
  apt_update
  log "apt-get install ${missing[*]}"
  "${APT_GET[@]}" install --no-install-recommends "${missing[@]}" >/dev/null
else
  log "packages already installed: ${PKGS[*]}"
fi
[[ -x ${PG_CONFIG} ]] || die "${PG_CONFIG} not found after install"

# --------------------------------------------------------------------------
# 2. pgvector from Debian trixie's source package
# --------------------------------------------------------------------------
if ((NEED_PGVECTOR)); then
  log "pgvector ${have:-not installed}; building from Debian trixie source"
  ((APT_UPDATED)) || apt_update
  work="$(mktemp -d /tmp/engram-pgvector.XXXXXX)"
  chmod 755 "${work}"
  (
    cd "${work}"
    log "apt-get source pgvector (in ${work})"
    # --only-source: the *source* package named pgvector; as root apt warns
    # that the download is unsandboxed, which is harmless.
    apt-get -q source --only-source pgvector >source.log 2>&1 \
      || { cat source.log >&2; die "apt-get source pgvector failed"; }
    src="$(find . -mindepth 1 -maxdepth 1 -type d -name 'pgvector-*' | head -n1)"
    [[ -n ${src} && -f ${src}/Makefile ]] || die "apt-get source pgvector produced no source tree"
    log "building ${src#./} against PostgreSQL ${PG_MAJOR}"
    # OPTFLAGS= : no -march=native (as Debian builds it), so the .so stays
    # portable across CPUs; pgvector still dispatches SIMD at run time.
    make -C "${src}" -j"$(nproc)" PG_CONFIG="${PG_CONFIG}" OPTFLAGS= >build.log 2>&1 \
      || { tail -n 40 build.log >&2; die "pgvector build failed"; }
    "${SUDO[@]}" make -C "${src}" install PG_CONFIG="${PG_CONFIG}" OPTFLAGS= >>build.log 2>&1 \
      || { tail -n 40 build.log >&2; die "pgvector install failed"; }
  )
  rm -rf "${work}"
  have="$(pgvector_version)"
  version_ok "${have}" || die "pgvector ${have:-?} installed, need >= ${PGVECTOR_MIN}"
  log "pgvector ${have} installed into $("${PG_CONFIG}" --pkglibdir)"
else
  log "pgvector ${have} already installed for PostgreSQL ${PG_MAJOR}"
fi

# --------------------------------------------------------------------------
# 3. cluster
# --------------------------------------------------------------------------
cluster_status() { pg_lsclusters -h 2>/dev/null | awk -v v="${PG_MAJOR}" -v c="${PG_CLUSTER}" '$1==v && $2==c {print $4}'; }

if [[ -z "$(cluster_status)" ]]; then
  log "creating cluster ${PG_MAJOR}/${PG_CLUSTER} on port ${PG_PORT}"
  "${SUDO[@]}" pg_createcluster --port="${PG_PORT}" --locale=C.UTF-8 --encoding=UTF8 \
    "${PG_MAJOR}" "${PG_CLUSTER}" >/dev/null
fi
conf_dir="/etc/postgresql/${PG_MAJOR}/${PG_CLUSTER}"
cur_port="$(pg_conftool -s "${PG_MAJOR}" "${PG_CLUSTER}" show port 2>/dev/null || echo "${PG_PORT}")"
if [[ ${cur_port} != "${PG_PORT}" ]]; then
  log "cluster ${PG_MAJOR}/${PG_CLUSTER} was on port ${cur_port}; moving to ${PG_PORT}"
  "${SUDO[@]}" pg_conftool "${PG_MAJOR}" "${PG_CLUSTER}" set port "${PG_PORT}"
  if [[ "$(cluster_status)" == online* ]]; then
    "${SUDO[@]}" pg_ctlcluster "${PG_MAJOR}" "${PG_CLUSTER}" stop
  fi
fi
# Debian's default listen_addresses is 'localhost' (127.0.0.1 + ::1) and
# pg_hba allows scram-sha-256 password logins from 127.0.0.1/32; assert it.
if ! "${SUDO[@]}" grep -Eq '^host[[:space:]]+all[[:space:]]+all[[:space:]]+127\.0\.0\.1/32[[:space:]]+(scram-sha-256|md5|password|trust)' \
  "${conf_dir}/pg_hba.conf"; then
  log "adding pg_hba rule for 127.0.0.1/32"
  echo 'host all all 127.0.0.1/32 scram-sha-256' | "${SUDO[@]}" tee -a "${conf_dir}/pg_hba.conf" >/dev/null
  if [[ "$(cluster_status)" == online* ]]; then
    "${SUDO[@]}" pg_ctlcluster "${PG_MAJOR}" "${PG_CLUSTER}" reload
  fi
fi

# Socket dir lives on /run, which may be empty on a fresh container boot.
"${SUDO[@]}" install -d -o postgres -g postgres -m 2775 /var/run/postgresql

if [[ "$(cluster_status)" != online* ]]; then
  log "starting cluster ${PG_MAJOR}/${PG_CLUSTER}"
  # Without systemd pg_ctlcluster runs pg_ctl, which puts the postmaster in
  # its own session with a log file: it survives this shell.
  "${SUDO[@]}" pg_ctlcluster "${PG_MAJOR}" "${PG_CLUSTER}" start \
    || { tail -n 30 "/var/log/postgresql/postgresql-${PG_MAJOR}-${PG_CLUSTER}.log" >&2 || true; die "cluster failed to start"; }
else
  log "cluster ${PG_MAJOR}/${PG_CLUSTER} already running"
fi

for _ in $(seq 1 60); do
  "${PG_BIN}/pg_isready" -q -h 127.0.0.1 -p "${PG_PORT}" && break
  sleep 1
done
"${PG_BIN}/pg_isready" -h 127.0.0.1 -p "${PG_PORT}" >/dev/null || die "server not accepting connections on 127.0.0.1:${PG_PORT}"

# --------------------------------------------------------------------------
# 4. role, databases, extension
# --------------------------------------------------------------------------
psql_admin() { as_postgres "${PG_BIN}/psql" -X -q -v ON_ERROR_STOP=1 -p "${PG_PORT}" "$@"; }

psql_admin -d postgres <<SQL
DO \$\$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${DB_USER}') THEN
    CREATE ROLE ${DB_USER} LOGIN SUPERUSER PASSWORD '${DB_PASSWORD}';
  ELSE
    ALTER ROLE ${DB_USER} LOGIN SUPERUSER PASSWORD '${DB_PASSWORD}';
  END IF;
END
\$\$;
SQL

for db in "${DB_NAMES[@]}"; do
  if [[ -z "$(psql_admin -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '${db}'")" ]]; then
    log "creating database ${db}"
    psql_admin -d postgres -c "CREATE DATABASE ${db} OWNER ${DB_USER} ENCODING 'UTF8' LC_COLLATE 'C.UTF-8' LC_CTYPE 'C.UTF-8' TEMPLATE template0"
  fi
  # (ALTER ... UPDATE: a database may hold an older vector from a previous install)
  psql_admin -d "${db}" -c "SET client_min_messages = warning; CREATE EXTENSION IF NOT EXISTS vector; ALTER EXTENSION vector UPDATE"
done

# The owner and service roles for the dev database (docs/append-only.md); tests create their own.
log "roles engram_owner (migrations) and engram_app (service) in database engram"
psql_admin -d engram -f "$(dirname "${BASH_SOURCE[0]}")/engram-roles.sql" >/dev/null

if [[ ${ENGRAM_PG_FAST:-0} == 1 ]]; then
  log "ENGRAM_PG_FAST=1: fsync, synchronous_commit, full_page_writes off (throwaway data)"
  psql_admin -d postgres <<'SQL'
ALTER SYSTEM SET fsync = off;
ALTER SYSTEM SET synchronous_commit = off;
ALTER SYSTEM SET full_page_writes = off;
SELECT pg_reload_conf() \gset
SQL
fi

url="postgres://${DB_USER}:${DB_PASSWORD}@127.0.0.1:${PG_PORT}/${DB_NAMES[0]}"
ver="$(PGCONNECT_TIMEOUT=5 "${PG_BIN}/psql" -X -tA "${url}" -c \
  "SELECT current_setting('server_version') || ' / pgvector ' || extversion FROM pg_extension WHERE extname = 'vector'")" \
  || die "cannot connect as ${url}"
log "ready: PostgreSQL ${ver}"
log "DATABASE_URL=${url}"
