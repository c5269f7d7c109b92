#!/usr/bin/env bash
# The sweep on a real Slurm cluster: starts a one-node cluster from Debian's packages (munge,
# slurmctld, slurmd) in a scratch folder, submits the bundled sweep as the array job that
# `achilles sweep --emit slurm` writes, waits for it, merges the shards, and compares the merged
# bytes with the same sweep run unsharded. Then it deletes one shard, resubmits that array task
# alone (a retry) and checks the shard comes back byte for byte.
#
# Run as root (CI does), after `npm ci` (bin/achilles.js needs dist/). Installs slurm-wlm and munge
# with apt-get when they are missing. Nothing outside the scratch folder is configured: the daemons
# read their config through SLURM_CONF and talk through a munge socket of their own, on ports of
# their own (ACHILLES_SLURM_PORT, default 16817 and the next one), and are stopped at the end.
# The node runs without cgroups (proctrack/linuxproc, task/none), so it works in a container.
#
# Exit codes: 0 the check passed; 1 it failed (a mismatch, a failed job); 3 Slurm cannot run on
# this machine (not root, no packages, a daemon that will not start): the reason is printed, and
# nothing is claimed about the sweep.
set -euo pipefail
REPO="$(cd "$(dirname "$0")/.." && pwd)"
SWEEP="$REPO/scenes/sweeps/quadruped-drop.yaml"
ACHILLES=(node "$REPO/bin/achilles.js")
PORT="${ACHILLES_SLURM_PORT:-16817}"

say() { echo "slurm-check: $*"; }
cannot() {
  say "SLURM CANNOT RUN HERE: $*"
  exit 3
}

[ "$(id -u)" = 0 ] || cannot "this script starts slurmctld, slurmd and munged as root (CI runs as root); run it as root"
[ -f "$REPO/dist/cli/main.js" ] || {
  say "dist/ is missing: run npm ci (or npx tsc -p tsconfig.json) first"
  exit 1
}

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null; then
  command -v apt-get >/dev/null || cannot "slurmctld, slurmd or munged is missing and there is no apt-get to install slurm-wlm and munge"
  say "installing slurm-wlm and munge (Debian's packages)"
  DEBIAN_FRONTEND=noninteractive apt-get install -y slurm-wlm munge >/dev/null ||
    { apt-get update >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y slurm-wlm munge >/dev/null; } ||
    cannot "apt-get could not install slurm-wlm and munge"
fi
say "$(slurmctld -V)"

WORK="$(mktemp -d /tmp/achilles-slurm.XXXXXX)"
PIDS=()
cleanup() {
  local pid
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [ "${KEEP_WORK:-}" = 1 ]; then say "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
# Searchable by all (munged refuses a socket whose folders others cannot enter), writable by root only.
chmod 755 "$WORK"
mkdir -p "$WORK/munge" "$WORK/state" "$WORK/spool" "$WORK/job"

# munge: a key and a socket of our own (never the system's /etc/munge).
dd if=/dev/urandom of="$WORK/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$WORK/munge/munge.key"
SOCKET="$WORK/munge/munge.socket"
munged --foreground --force --key-file="$WORK/munge/munge.key" --socket="$SOCKET" \
  --pid-file="$WORK/munge/munged.pid" --log-file="$WORK/munge/munged.log" --seed-file="$WORK/munge/munge.seed" \
  >>"$WORK/munge/munged.out" 2>&1 &
PIDS+=($!)
for _ in $(seq 50); do [ -S "$SOCKET" ] && break; sleep 0.1; done
[ -S "$SOCKET" ] || cannot "munged did not start: $(tail -n 5 "$WORK/munge/munged.out" 2>/dev/null)"

NODE="$(hostname -s)"
# The node as slurmd sees this machine (boards, sockets, cores, threads, memory): a node line that
# claims more than the hardware has is drained at registration.
HW="$(slurmd -C 2>/dev/null | head -n 1 | sed -e 's/^NodeName=[^ ]* //' -e 's/ *UpTime=.*//')"
[ -n "$HW" ] || cannot "slurmd -C could not describe this machine: $(slurmd -C 2>&1 | tail -n 3)"
export SLURM_CONF="$WORK/slurm.conf"
cat >"$SLURM_CONF" <<EOF
ClusterName=achilles-check
SlurmctldHost=$NODE(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$PORT
SlurmdPort=$((PORT + 1))
AuthType=auth/munge
AuthInfo=socket=$SOCKET
CredType=cred/munge
# No cgroups: processes are tracked through /proc, tasks are not bound (works in a container).
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
StateSaveLocation=$WORK/state
SlurmdSpoolDir=$WORK/spool
SlurmctldPidFile=$WORK/slurmctld.pid
SlurmdPidFile=$WORK/slurmd.pid
SlurmctldLogFile=$WORK/slurmctld.log
SlurmdLogFile=$WORK/slurmd.log
NodeName=$NODE NodeAddr=127.0.0.1 $HW State=UNKNOWN
PartitionName=check Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF

slurmctld -D -i -f "$SLURM_CONF" >"$WORK/slurmctld.out" 2>&1 &
PIDS+=($!)
slurmd -D -f "$SLURM_CONF" -N "$NODE" >"$WORK/slurmd.out" 2>&1 &
PIDS+=($!)
state=""
for _ in $(seq 120); do
  state="$(sinfo -h -n "$NODE" -o %T 2>/dev/null || true)"
  [ "$state" = idle ] && break
  for pid in "${PIDS[@]}"; do
    kill -0 "$pid" 2>/dev/null || {
      tail -n 15 "$WORK"/slurmctld.log "$WORK"/slurmd.log "$WORK"/slurmctld.out "$WORK"/slurmd.out 2>/dev/null || true
      cannot "a Slurm daemon exited at start-up (its log is above)"
    }
  done
  sleep 0.5
done
if [ "$state" != idle ]; then
  tail -n 15 "$WORK"/slurmctld.log "$WORK"/slurmd.log 2>/dev/null || true
  cannot "the node did not become idle within 60 s (state '${state:-unknown}'; the logs are above)"
fi
say "one-node cluster up: node $NODE ($HW), partition check"

cd "$WORK/job"
"${ACHILLES[@]}" sweep "$SWEEP" --emit slurm --out "$WORK/cluster" >sweep.sbatch
say "submitting the array job ($(grep -m1 '^#SBATCH --array' sweep.sbatch | sed 's/#SBATCH //')) of $SWEEP"
if ! timeout 900 sbatch --wait --parsable sweep.sbatch >jobid; then
  squeue 2>/dev/null || true
  tail -n 30 slurm-*.out 2>/dev/null || true
  say "FAIL: the array job failed (the task logs are above)"
  exit 1
fi
say "job $(cat jobid) done; task logs: $(ls slurm-*.out | tr '\n' ' ')"
for f in slurm-*.out; do
  grep -q 'from Slurm array task' "$f" || {
    cat "$f"
    say "FAIL: $f does not say which array task ran it"
    exit 1
  }
done

"${ACHILLES[@]}" sweep merge "$WORK/cluster"
"${ACHILLES[@]}" sweep "$SWEEP" --shards 1 --out "$WORK/local" >/dev/null
fail=0
for f in results.csv traces.csv sweep.json metrics.vl.json metrics.svg draws.vl.json draws.svg; do
  if cmp -s "$WORK/local/$f" "$WORK/cluster/$f"; then say "same bytes: $f ($(wc -c <"$WORK/local/$f") bytes)"; else
    say "FAIL: $f differs between the Slurm run and the unsharded run"
    fail=1
  fi
done
[ "$fail" = 0 ] || exit 1

# A retry: shard 1's files gone, its array task resubmitted alone.
SHARD1="$WORK/cluster/shards/shard-1-of-3"
cp -r "$SHARD1" "$WORK/shard1-before"
rm -rf "$SHARD1"
timeout 300 sbatch --wait --parsable --array=1 sweep.sbatch >/dev/null || {
  say "FAIL: the retried array task failed"
  exit 1
}
for f in results.csv traces.csv; do
  cmp -s "$WORK/shard1-before/$f" "$SHARD1/$f" || {
    say "FAIL: the retried shard's $f differs"
    exit 1
  }
done
say "retried shard 1 (sbatch --array=1): same bytes"
say "PASS: Slurm array job of 3 shards, merged = unsharded, byte for byte"
