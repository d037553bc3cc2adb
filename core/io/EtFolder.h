#pragma once
// PyTorch execution traces (ET) for a loaded Kineto set, from files or folders: the ET folder
// logic the CLI (--et) and the GUI (File > Attach Execution Traces, an et/ folder next to
// kineto/) share. Files are paired with ranks by the rank number in their names, else by order;
// collectives without Kineto size metadata get their sizes (docs/Chakra.md, "Execution traces").
#include "base/Diagnostics.h"
#include "trace/TraceSet.h"

#include <string>
#include <vector>

namespace sl {

// What applying execution traces did, for messages and tests.
struct EtApplied {
    int files = 0;
    int ranksLinked = 0;
    int collectives = 0, filled = 0, alreadySized = 0, unmatched = 0;
    int equalized = 0;     // all-to-all sizes made equal across ranks
    int opsShaped = 0;     // CPU ops recorded without shapes that got them from an ET
    std::string matchedBy; // "file name" or "order"
    Warnings warnings;
    std::string summary() const;
};

// Folders expand to their .json / .json.gz files, sorted by name. Throws LoadError for a path
// that does not exist or a folder without execution trace files.
std::vector<std::string> expandEtPaths(const std::vector<std::string>& paths);

// Loads the execution traces, matches them to ranks by the rank number in the file name
// (dlrm_eg_3, rank-3, worker3), else by order, and fills the sizes of collectives that lack them.
// Throws LoadError on a bad ET file.
EtApplied applyExecutionTraces(TraceSet& set, const std::vector<std::string>& etPaths);

// The execution-trace folder that sits next to a Kineto folder: for ".../run/kineto" (or a file
// in it), or the run folder ".../run" itself, the folder ".../run/et" when it exists and holds
// .json / .json.gz files, else "".
std::string etFolderBeside(const std::string& kinetoPath);

// A run folder: a folder holding a kineto/ folder and no trace file (.json, .json.gz) of its own,
// as ../shared/traces/dlrm-8rank-v100 (kineto/ and et/). Loading it loads its kineto/ folder; the
// CLI and the GUI take its et/ folder as the execution traces.
bool isRunFolder(const std::string& path);

} // namespace sl
