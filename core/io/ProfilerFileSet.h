#pragma once
// A set of files of one profiler whose files may each hold several ranks (rocprofv3 JSON: one per
// process; XSpace: one per GPU plane): files are loaded in order, ranks numbered in load order
// unless the file gives one, bad files left out when LoadOptions::skipBadFiles (one warning each),
// the set finished as the Kineto loader finishes it (ranks ordered, duplicates and gaps warned).
#include "io/FileReader.h"
#include "io/KinetoLoader.h"
#include "trace/TraceSet.h"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace sl {

// Loads one file's ranks; firstRank is the rank number its first rank gets when the file names none.
using ProfilerFileLoader =
    std::function<std::vector<Rank>(const std::string& path, int firstRank, const LoadOptions& options)>;

TraceSet loadProfilerFileSet(const std::vector<std::string>& files, const LoadOptions& options,
                             const ProfilerFileLoader& loadFile);

// True when every path is a file that satisfies `accepts`, or a folder holding at least one such
// file directly inside it (folders are expanded with expandProfilerFolders).
bool allProfilerInputs(const std::vector<std::string>& paths,
                       const std::function<bool(const std::string&)>& accepts);
// Folders replaced by the files directly inside them that satisfy `accepts` (sorted by name); files
// kept as given.
std::vector<std::string> expandProfilerFolders(const std::vector<std::string>& paths,
                                               const std::function<bool(const std::string&)>& accepts);

// The most (uncompressed) bytes a file read and parsed whole may have within the memory budget
// (io/MemoryLimits.h, limit 4).
std::int64_t wholeFileByteLimit(const LoadOptions& options);

// A file read whole for a loader that parses it at once (rocprofv3 JSON, XSpace): the memory it
// will take checked against the budget first, inflated when gzip, within wholeFileByteLimit.
TraceBuffer readWholeProfilerFile(const std::string& path, const LoadOptions& options);
// The same for a file's bytes already in memory (the fuzz entry points).
TraceBuffer decodeWholeProfilerBytes(std::string_view bytes, const std::string& name,
                                     const LoadOptions& options);

// Up to maxBytes from the start of a file, inflated when it is gzip; empty when unreadable.
std::string readFileHead(const std::string& path, std::size_t maxBytes = 4096);

} // namespace sl
