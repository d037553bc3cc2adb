#!/usr/bin/env bash
# Regenerates the bundled sample trace sets in samples/ with the built sightline-cli.
#   scripts/make-samples.sh [path/to/sightline-cli]   (default: $SIGHTLINE_CLI, else build/release)
# The generator is deterministic: the same arguments and seed give byte-identical files.
set -euo pipefail
cd "$(dirname "$0")/.."
cli="${1:-${SIGHTLINE_CLI:-build/release/app/sightline-cli}}"
if [ ! -x "$cli" ]; then
  echo "sightline-cli not found at $cli (build it, or pass its path)" >&2
  exit 1
fi
small=(--layers 4 --hidden 2048 --heads 16 --seq 1024 --steps 2 --gzip --quiet)
gen() {
  local dir="samples/$1"
  shift
  rm -rf "$dir"
  "$cli" generate --out "$dir" "$@"
  echo "$dir: $(ls "$dir" | wc -l) ranks, $(du -sh "$dir" | cut -f1)"
}
# Listed first so that ./run.sh opens it: 8-way data parallel where rank 5's GPU is 30% slower;
# every rank's gradient all-reduce waits for it (exposed communication, critical path through rank 5).
gen 01-dp8-straggler "${small[@]}" --dp 8 --straggler-rank 5 --straggler-slowdown 1.3
# Plain 4-way data parallel: bucketed gradient all-reduce overlapped with the backward pass.
gen 02-dp4 "${small[@]}" --dp 4
# Tensor parallel 2 x pipeline parallel 2, 4 micro-batches in a 1F1B schedule: TP all-reduces on
# the critical path, pipeline bubbles, send/recv between the stages.
gen 03-tp2-pp2 "${small[@]}" --dp 1 --tp 2 --pp 2 --microbatches 4
# All three on two A100 nodes of 4 GPUs: pipeline send/recv crosses the slower inter-node network.
gen 04-dp2-tp2-pp2-2nodes "${small[@]}" --dp 2 --tp 2 --pp 2 --microbatches 4 --gpu a100 --gpus-per-node 4
# A recommendation model on 4 ranks (docs/Embeddings.md): 8 embedding tables, the two heavy ones on
# rank 0, whose lookups hold the pooled all-to-all of every rank (the "Embedding tables" dock and
# the embedding load-balance lesson).
gen 05-rec-embeddings --dp 4 --steps 1 --gzip --quiet --rec-tables scripts/rec-tables.json
