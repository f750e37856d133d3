#!/usr/bin/env bash
# The campaign's GPU queue on a lent GPU machine (the `device` tool), within a time budget. Everything the runs produce
# (records, parked checkpoints of unfinished runs, the status before and after) comes back as files under $OUT.
#
# Before the call, on the development machine (the data must travel inside the checkout: 64 MiB a call, repo included):
#   mkdir -p .device/datasets && cp -r ../shared/datasets/mnist .device/datasets/        # .device/ is git-ignored
#   (cifar10-jpg: train.zip and test.zip, 59 MB together, travel with a repo of ~18 MB only if split over two calls
#    on a warm machine; imagenette-160/train.zip alone is 57.5 MB.)
# The call (device tool `run`, carry ['.device'], timeout_s 600):
#   EFFATTN_COMMIT=<git rev-parse HEAD> bash .ci/gpu_campaign.sh 9m --papers 002
# Afterwards, on the development machine:
#   tar xzf <files_at>/campaign.tar.gz && effattn campaign status --queue gpu && effattn report
# Tested on a CPU by the test suite (EFFATTN_DEVICE=cpu, a budget of seconds: it must start, plan, pack and exit 0).
set -uo pipefail
cd "$(dirname "$0")/.."
budget="${1:-9m}"; shift || true
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}" PYTHONUNBUFFERED=1
export EFFATTN_DATA="${EFFATTN_DATA:-$PWD/.device/datasets}"
py="${PYTHON:-python3}"
device="${EFFATTN_DEVICE:-cuda}"
out="${OUT:-$PWD/runs/gpu_out}"; mkdir -p "$out"
{ nvidia-smi 2>/dev/null || echo "no nvidia-smi"; "$py" -c "import torch; print('torch', torch.__version__, 'cuda', torch.cuda.is_available())"; } > "$out/machine.txt" 2>&1
"$py" -m effattn campaign status --queue gpu --device "$device" "$@" > "$out/status_before.txt" 2>&1
"$py" -m effattn campaign run --queue gpu --device "$device" --budget "$budget" --jobs "${JOBS:-4}" \
    --pack "$out/campaign.tar.gz" "$@" 2>&1 | tee "$out/campaign.log"
rc=${PIPESTATUS[0]}
"$py" -m effattn campaign status --queue gpu --device "$device" "$@" > "$out/status_after.txt" 2>&1
tail -n 3 "$out/status_after.txt"
exit "$rc"
