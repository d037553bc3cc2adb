#pragma once
// Groups of ranks for the timeline (docs/ManyRanks.md): by node (rank id / GPUs per node, from
// the trace's devices), by pipeline stage (pp) or by data-parallel replica (dp) of the recognised
// structure (RankLabels.h). A rank without a place (structure not recognised) goes to one group of
// its own, kUnplaced, shown last.
#include "RankLabels.h"

#include "trace/TraceSet.h"

#include <QString>

#include <vector>

namespace sl::ui {

enum class RankGrouping { None, Node, Stage, Replica };

constexpr int kUnplaced = 1 << 30;

// The group key of every rank of `set` (parallel to TraceSet::ranks); all -1 for None. `labels`:
// the set's labels where the caller keeps them, else the places are recognised here (microseconds).
std::vector<int> rankGroups(const TraceSet& set, RankGrouping grouping, const RankLabels* labels = nullptr);
// "Node 3", "Stage pp1", "Replica dp5", "No place".
QString groupLabel(RankGrouping grouping, int key);
// The names a session and the View menu use: "none", "node", "stage", "replica".
QString groupingName(RankGrouping grouping);
// Parses groupingName's names; false for anything else.
bool groupingFromName(const QString& name, RankGrouping& out);

} // namespace sl::ui
