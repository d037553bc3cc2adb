#pragma once
// rocprofv3's JSON output (`rocprofv3 --output-format json`, the "rocprofiler-sdk-tool" document of
// AMD's rocprofiler-sdk): one rank per process entry with GPU work. Read: kernel_dispatch records
// (kernels on their HSA queue, one stream per queue, names from kernel_symbols), memory_copy records
// (one copy stream per direction and device), hip_api records (HIP runtime calls on their thread,
// linked to their GPU work by correlation_id.internal), marker_api records (ROCTx ranges as user
// annotations), rccl_api records (RCCL calls as CPU ops) and the agents (GPU names and CU counts).
// A file without host records (no --hip-trace / --runtime-trace) loads GPU-only, with a warning.
#include "io/KinetoLoader.h"
#include "trace/TraceSet.h"

#include <string>
#include <string_view>
#include <vector>

namespace sl {

// Copy streams: stream ids of the memory_copy tracks, one per direction (base + direction).
inline constexpr std::int64_t kRocprofCopyStreamBase = 1'000'000;

// True when the (inflated) start of a file is rocprofv3 JSON: an object whose first key is
// "rocprofiler-sdk-tool" (whitespace allowed around it).
bool looksLikeRocprofJson(std::string_view head);
// True when the file at path (plain or gzip) looks like rocprofv3 JSON.
bool isRocprofFile(const std::string& path);
// True when every path is a rocprofv3 file or a folder holding some.
bool isRocprofInput(const std::vector<std::string>& paths);

// The ranks of one file (plain or gzip), or of bytes in memory (name stands for the file). The first
// rank gets rankFromFileName(name) when the name has one, else firstRank; each further process the
// next number. Throws LoadError (one line naming the file) on anything that is not rocprofv3 JSON.
std::vector<Rank> loadRocprofFile(const std::string& path, int firstRank = 0,
                                  const LoadOptions& options = {});
std::vector<Rank> loadRocprofBytes(std::string_view bytes, const std::string& name, int firstRank = 0,
                                   const LoadOptions& options = {});

// Files and folders of rocprofv3 JSON as a rank set.
TraceSet loadRocprofTraceSet(const std::vector<std::string>& paths, const LoadOptions& options = {});

} // namespace sl
