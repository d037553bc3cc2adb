#pragma once
// What a Chakra execution-trace node carries beyond an event's name and duration (docs/Chakra.md):
// its id, dependencies, placement and communication attributes, typed. The Chakra reader fills one
// per event (Rank::chakraNodes); the graph and `info` read it from there, not from args text.
#include <cstdint>
#include <string>
#include <vector>

namespace sl {

struct ChakraNodeMeta {
    std::uint64_t id = 0;
    int type = 0; // io/chakra's ChakraNodeType, as its integer
    std::vector<std::uint64_t> dataDeps;
    std::vector<std::uint64_t> ctrlDeps;
    bool durationInFile = true; // false: the duration is a placeholder (0)
    std::int64_t startNs = -1;  // start_time_micros, when the file gives one
    std::int64_t commSize = -1; // bytes, when the file gives them
    std::int64_t commSrc = -1, commDst = -1, commTag = -1;
    std::string pgName;
};

} // namespace sl
