#pragma once
// PyTorch Execution Trace (ET, "execution graph observer", schema 1.0.x and 1.1.x) as a small model:
// per node its rf_id, name, thread, input / output tensors (shapes, dtypes, element counts) and,
// for communication nodes (record_param_comms, c10d::*, nccl:*), the collective it describes
// (type, element counts, dtype, split sizes of all_to_allv). ET files are small (one iteration),
// so they are parsed with nlohmann_json.
#include "trace/Collective.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace sl {

// One tensor argument: the ET value [tensor id, storage id, offset, numel, itemsize, device].
struct EtTensor {
    std::int64_t numel = -1;
    int itemSize = 0;
    std::string dtype; // PyTorch C++ type name from "Tensor(float)": "float", "long int", "c10::Half"
    std::vector<std::int64_t> shape;
};

// One input or output: its ET type and what it holds.
struct EtArg {
    std::string type;               // "Tensor(float)", "GenericList[Tensor(float)]", "Int", "String", ...
    std::vector<EtTensor> tensors;  // a tensor, or the tensors of a tensor list
    std::vector<std::int64_t> ints; // an Int, or the values of an int list
    std::string text;               // a String value
    bool isList = false;            // a GenericList (possibly empty)
};

// The collective a communication node describes.
struct EtCollective {
    bool valid = false;
    std::string name; // "allreduce", "all_to_allv", "nccl:all_reduce", "c10d::allreduce_", ...
    CollectiveType type = CollectiveType::Unknown;
    std::int64_t inNelems = -1;  // sum of the input split sizes (all_to_allv), else input numel
    std::int64_t outNelems = -1; // sum of the output split sizes (all_to_allv), else output numel
    std::string dtype;           // a name trace/Collective.h's dtypeSize() knows ("Float", "Long", ...)
    int elemSize = 0;
    int groupSize = -1; // from the split lists' length or a group size attribute, else -1
    std::vector<std::int64_t> inSplits, outSplits;
    // Priority of the source when several nodes describe one collective: record_param_comms 3,
    // c10d::* 2, nccl:* / gloo:* 1.
    int priority = 0;
};

struct EtNode {
    std::int64_t id = -1;
    std::int64_t parent = -1;
    std::int64_t rfId = -1;
    std::int64_t tid = 0;
    std::string name;
    std::vector<EtArg> inputs, outputs;
    EtCollective collective;
    // Thread / process roots ("[pytorch|profiler|execution_graph|thread]") are no record functions.
    bool isRoot() const;
};

struct ExecutionTrace {
    std::string path;
    std::string schema;
    std::vector<EtNode> nodes;                            // in file order
    std::unordered_map<std::int64_t, std::size_t> byRfId; // rf_id -> first node with it
    std::unordered_map<std::int64_t, std::size_t> byId;   // node id -> node

    const EtNode* findRfId(std::int64_t rfId) const;
    const EtNode* parentOf(const EtNode& n) const;
    std::size_t collectiveCount() const;
};

// Loads an ET file (.json or .json.gz). Throws LoadError ("FILE: what") on unreadable or malformed
// input; never crashes on unexpected value types (they are ignored).
ExecutionTrace loadExecutionTrace(const std::string& path);
// The same for text in memory; name stands for the file in messages.
ExecutionTrace parseExecutionTrace(std::string_view json, const std::string& name);

// A dtype name that dtypeSize() knows, from an ET tensor type ("float" -> "Float", "long int" ->
// "Long", "c10::BFloat16" -> "BFloat16"); for unknown names one is chosen from itemSize; "" if none.
std::string etDtypeName(std::string_view etType, int itemSize);

// The rank written in an ET file name: "rank-3", "worker3" (as for Kineto files), else a number at
// the end of the stem ("dlrm_eg_3.json.gz", "et.3.json"); -1 when none.
int rankFromEtFileName(const std::string& path);

} // namespace sl
