#pragma once
// Chakra execution traces (.et): the length-delimited protobuf files of the Chakra schema (a
// GlobalMetadata message, then one Node message per node), read into plain structs and written
// back. The protobuf types stay inside the .cpp files. Semantics, limits and what a Chakra set
// means for the replay: docs/Chakra.md.
#include "base/Diagnostics.h"
#include "trace/TraceSet.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sl {

// ChakraNodeType (the schema's NodeType) is in trace/ChakraNodeMeta.h, with the events it types.
// "COMP_NODE", "COMM_COLL_NODE", ... (the schema's enum names).
std::string_view chakraNodeTypeName(ChakraNodeType t);

// Values of the schema's CollectiveCommType enum ("comm_type" attribute).
enum class ChakraCommType : std::int32_t {
    AllReduce = 0,
    Reduce = 1,
    AllGather = 2,
    Gather = 3,
    Scatter = 4,
    Broadcast = 5,
    AllToAll = 6,
    ReduceScatter = 7,
    ReduceScatterBlock = 8,
    Barrier = 9,
};
constexpr int kChakraCommTypeCount = 10;
std::string_view chakraCommTypeName(ChakraCommType t); // "ALL_REDUCE", ...
CollectiveType collectiveTypeFromChakra(ChakraCommType t);
// The Chakra comm type of a collective, or -1 when it has none (send / recv / unknown).
int chakraCommTypeOf(CollectiveType t);

struct ChakraNode {
    std::uint64_t id = 0;
    std::string name;
    ChakraNodeType type = ChakraNodeType::Invalid;
    std::vector<std::uint64_t> dataDeps;
    std::vector<std::uint64_t> ctrlDeps;
    std::int64_t durationNs = -1; // -1: the file gives none
    std::int64_t startNs = -1;    // start_time_micros when present (informative only)
    bool isCpuOp = false;         // "is_cpu_op" attribute
    std::int64_t tid = -1;        // "tid" attribute: CPU thread or GPU stream
    std::int64_t stream = -1;     // "stream" attribute (Chakra's converter, GPU nodes)
    int commType = -1;            // "comm_type" (ChakraCommType), -1 when absent
    std::int64_t commSize = -1;   // "comm_size" in bytes, -1 when absent
    std::string commGroup;        // "pg_name" / "comm_group" / "process_group"
    std::int64_t commSrc = -1, commDst = -1, commTag = -1;
    // "comm_size_estimated" (Sightline's export): comm_size derived from a measured transfer time.
    bool commSizeEstimated = false;
    std::string inputShapes, inputTypes, outputShapes, outputTypes;

    bool isComm() const { return isChakraCommType(type); }
};

struct ChakraFile {
    std::string path;
    std::string version;                                       // GlobalMetadata.version
    std::vector<std::pair<std::string, std::string>> metadata; // GlobalMetadata attributes as text
    std::vector<ChakraNode> nodes;                             // file order
    // Control dependencies are read and kept, but only data dependencies order the replay (as in
    // ASTRA-sim's feeder); these count the ones that could not have been used anyway.
    std::int64_t ctrlDepsOnSelf = 0;
    std::int64_t ctrlDepsMissing = 0;
    Warnings warnings;
};

struct ChakraLimits {
    std::int64_t maxNodes = 50'000'000;
    std::int64_t maxDurationNs = std::int64_t{1} << 50; // about 13 days per node
    std::int64_t maxCommBytes = std::int64_t{1} << 50;  // 1 PiB per collective
};

// Reads and checks one .et file (or its bytes; `name` stands for the file in messages). Throws
// LoadError with one line naming the file and, where one is concerned, the node id: truncated or
// corrupt protobuf, duplicate node ids, a data dependency on a missing node, a cycle of data
// dependencies, a duration or size beyond ChakraLimits.
ChakraFile readChakraFile(const std::string& path, const ChakraLimits& limits = {});
ChakraFile readChakraBytes(std::string_view bytes, const std::string& name, const ChakraLimits& limits = {});

// Writes a file in the same format (throws WriteError when the file cannot be written).
std::string chakraBytes(const ChakraFile& file);
void writeChakraFile(const std::string& path, const ChakraFile& file);

// True when a path is a .et file or a folder holding .et files.
bool isChakraPath(const std::string& path);
// Expands folders into their .et files, sorted by rank (the number before ".et": "chakra.3.et",
// "all_reduce.3.et"), then name. Throws LoadError for a missing path or a folder without .et files.
std::vector<std::string> expandChakraPaths(const std::vector<std::string>& paths);
// The number right before the ".et" extension, or -1.
int rankFromChakraFileName(const std::string& path);

} // namespace sl
