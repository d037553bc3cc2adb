#pragma once
// What a Chakra execution-trace node carries beyond an event's name and duration (docs/Chakra.md):
// its id, dependencies, placement and communication attributes, typed. The Chakra reader fills one
// per event (Rank::chakraNodes); the graph and `info` read it from there, not from args text.
#include <cstdint>
#include <string>
#include <vector>

namespace sl {

// Values of the schema's NodeType enum.
enum class ChakraNodeType : std::uint8_t {
    Invalid = 0,
    Metadata = 1,
    MemLoad = 2,
    MemStore = 3,
    Comp = 4,
    CommSend = 5,
    CommRecv = 6,
    CommColl = 7,
};
constexpr int kChakraNodeTypeCount = 8;
// Send, receive and collective nodes: communication, whatever their name.
inline bool isChakraCommType(ChakraNodeType t) {
    return t == ChakraNodeType::CommColl || t == ChakraNodeType::CommSend || t == ChakraNodeType::CommRecv;
}

struct ChakraNodeMeta {
    std::uint64_t id = 0;
    ChakraNodeType type = ChakraNodeType::Invalid;
    std::vector<std::uint64_t> dataDeps;
    std::vector<std::uint64_t> ctrlDeps;
    bool durationInFile = true; // false: the duration is a placeholder (0)
    std::int64_t startNs = -1;  // start_time_micros, when the file gives one
    std::int64_t commSize = -1; // bytes, when the file gives them
    std::int64_t commSrc = -1, commDst = -1, commTag = -1;
    std::string pgName;
};

} // namespace sl
