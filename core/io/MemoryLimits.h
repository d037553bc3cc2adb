#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace sl {

// Limits that turn "the machine ran out of memory" into a clear LoadError (docs/Loader.md, "Memory"):
//
//  1. Events per file: LoadOptions::maxEventsPerFile (default 50 million, about 3 GB of model).
//  2. Uncompressed JSON per file: kMaxUncompressedBytes (4 GiB - 1), the largest document the
//     simdjson parser accepts.
//  3. Memory for a set: before reading, the uncompressed JSON size of all files (gzip: from the
//     trailer) times kMemoryPerJsonByte must fit in the memory budget: LoadOptions::memoryLimitBytes,
//     or MemAvailable from /proc/meminfo when that is 0. With the budget unknown (no /proc) the
//     check is skipped. A load in pieces peaks at about half its JSON (the model, the pieces being
//     parsed; docs/Loader.md, "Memory"): 0.75 leaves a margin.
//  4. A file that must be parsed whole (too small to cut, or its pieces did not parse: "B"/"E"
//     pairs, a bad cut) holds the whole text, simdjson's index of it and the model at once, about
//     2.7 times its JSON: checked again before that read with kWholeParseMemoryPerJsonByte.
//  5. While inflating gzip, the output may not outgrow the budget either (catches gzip bombs and
//     trailers that lie).
inline constexpr std::int64_t kMaxUncompressedBytes = 0xFFFFFFFFLL - 64;
inline constexpr double kMemoryPerJsonByte = 0.75;
inline constexpr double kWholeParseMemoryPerJsonByte = 3.0;

// MemAvailable from /proc/meminfo in bytes, or -1 when it cannot be read.
std::int64_t availableMemoryBytes();

// The budget a load may use: limitOption when > 0, no limit (-1) when < 0, else MemAvailable.
std::int64_t memoryBudgetBytes(std::int64_t limitOption);

// Uncompressed size of a trace file: its size for plain files; for gzip the ISIZE trailer, but at
// least the compressed size (ISIZE is modulo 4 GiB). -1 when unreadable.
std::int64_t estimateUncompressedBytes(const std::string& path);

// Throws LoadError(label, ...) when kMemoryPerJsonByte x the uncompressed size of files exceeds budget.
void checkMemoryForLoad(const std::vector<std::string>& files, const std::string& label, std::int64_t budget);

// Throws LoadError(path, ...) when kWholeParseMemoryPerJsonByte x jsonBytes exceeds budget (limit 4).
void checkMemoryForWholeParse(const std::string& path, std::int64_t jsonBytes, std::int64_t budget);

} // namespace sl
