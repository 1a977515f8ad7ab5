#!/usr/bin/env bash
# The GPU checks, as one prepared run for a machine with a CUDA GPU and cupy (the device
# tool: its image has cupy, torch, pytest, hypothesis; optree travels as a wheel in .whl/).
# Logs go to $OUT (or ./gpu-logs). Each step is time-boxed so the whole run stays < 8 min.
set -u
OUT=${OUT:-gpu-logs}; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1
# missing packages (optree) travel as wheels in .whl/; installed into python3's own environment
# so that the suite's subprocesses (launcher, CLI tests) find them too
if ls .whl/*.whl >/dev/null 2>&1; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir .whl/*.whl || exit 1
fi
export PYTHONPATH=$PWD
nvidia-smi -L
python3 -c "import funcgrad as fg; print('cuda available:', fg.cuda_available(), fg.devices())" || exit 1
echo "== 1. every primitive spec on cuda (shape rules, vjp/jvp vs finite differences)"
timeout 100 python3 -m pytest -q -n 16 -p no:cacheprovider tests/primitives/test_registry.py -k cuda \
  2>&1 | tee "$OUT/registry.log" | tail -25
echo "== 2. the whole suite with cuda as the default device"
timeout 130 python3 -m pytest -q -n 16 -p no:cacheprovider --funcgrad-backend cuda tests \
  --deselect tests/primitives/test_registry.py 2>&1 | tee "$OUT/suite_cuda.log" | tail -40
echo "== 3. demo on cuda, compat training on cuda, timings"
timeout 40 python3 -m funcgrad demo --device cuda --epochs 3 2>&1 | tee "$OUT/demo.log" | tail -5
timeout 60 python3 scripts/gpu_smoke.py 2>&1 | tee "$OUT/smoke.log"
