#pragma once
// Links a PyTorch Execution Trace to the Kineto trace of the same rank and run, and gives collective
// kernels without Kineto size metadata their sizes from the ET (docs/Chakra.md, "Execution traces").
//
// Linking ET nodes to Kineto CPU ops (cpu_op / user_annotation):
//   1. by id: Kineto "Record function id" (newer PyTorch) == ET rf_id, the names agreeing;
//      the same with "Ev Idx" where that equals rf_id for (almost) every op;
//   2. else by order: within one thread, ET nodes in rf_id order and Kineto ops in "Ev Idx" order
//      (start order without it) are the same record functions in the same order. Each ET thread
//      is paired with the Kineto CPU thread whose name sequence it aligns with best; the sequences
//      are aligned by name, skipping ops present on one side only. Measured on the public traces:
//      in dlrm-8rank-v100 "Ev Idx" numbers each thread's ops after the other (backward thread
//      first) and is NOT the rf_id; in et-pairs/a100-simple-add "Ev Idx" == rf_id - 1.
//
// Sizes: a collective kernel -> its launch call -> the enclosing CPU ops, innermost first; of the
// linked ET nodes (and their ET parents) the best description wins: record_param_comms, then c10d::*,
// then nccl:*. Filled: inNelems / outNelems (the split-size totals for all_to_allv), dtype, type
// and group size. hasMetadata stays false: the ET is not Kineto metadata, and process-group keys of
// the graph must not change with it.
#include "base/Diagnostics.h"
#include "io/ExecutionTrace.h"
#include "trace/TraceSet.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace sl {

struct EtLinkStats {
    std::string method;         // "record function id", "ev idx", "order", or "none"
    std::int64_t kinetoOps = 0; // Kineto cpu_op / user_annotation events
    std::int64_t etOps = 0;     // ET nodes that are record functions
    std::int64_t linkedOps = 0; // pairs linked
    int collectives = 0;        // collective kernels of the rank
    int alreadySized = 0;       // had sizes from Kineto metadata (left alone)
    int filled = 0;             // got sizes from the ET
    int unmatched = 0;          // no linked ET collective found
    int opsShaped = 0;          // CPU ops without Kineto "Input Dims" that got shapes from the ET
    Warnings warnings;
};

// ET node index for each linked Kineto op (EventRef::packed()).
using EtOpLinks = std::unordered_map<std::uint64_t, std::size_t>;

// Links the ET's nodes to the rank's CPU ops; fills the op counts and method of stats.
EtOpLinks linkExecutionTraceOps(const Rank& rank, const ExecutionTrace& et, EtLinkStats* stats = nullptr);

// Links, fills the sizes of the rank's collective kernels that lack them and gives linked CPU ops
// recorded without shapes their ET node's input shapes (Rank::etOpShapes).
EtLinkStats attachExecutionTrace(Rank& rank, const ExecutionTrace& et);

// all_to_allv moves different amounts per rank, but one collective has one transfer time and the
// graph requires equal sizes across the members of a collective. For the k-th collective kernel
// (start order) of every rank, when all are all-to-all with sizes that differ, every member gets
// the group's largest in and out counts (the transfer ends with the most loaded member). Needs the
// same number of collectives on every rank. Returns how many collectives were changed.
int harmonizeAllToAllSizes(TraceSet& set, Warnings* warnings = nullptr);

} // namespace sl
