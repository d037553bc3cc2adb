#pragma once
// Counts over the raw JSON of a bundled sample (samples/<name>/rank-*.json.gz), read with zlib and
// nlohmann::json instead of the project's loader, so that a test can compare what the program shows
// with numbers the program did not compute.
#include <nlohmann/json.hpp>
#include <zlib.h>

#include <QtGlobal>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace sltest {

// The decompressed text of one .json.gz file (aborts the test program when it cannot be read:
// the samples are part of the repository).
inline std::string gunzipFile(const std::string& path) {
    gzFile f = gzopen(path.c_str(), "rb");
    if (!f) qFatal("cannot open %s", path.c_str());
    std::string text;
    char buffer[1 << 16];
    int n = 0;
    while ((n = gzread(f, buffer, sizeof buffer)) > 0)
        text.append(buffer, static_cast<std::size_t>(n));
    const bool failed = n < 0;
    gzclose(f);
    if (failed) qFatal("cannot decompress %s", path.c_str());
    return text;
}

// The traceEvents of every rank file in dir, one array per file, in file-name order.
inline std::vector<nlohmann::json> rawRankEvents(const std::string& dir) {
    std::vector<std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(dir))
        if (entry.path().filename().string().ends_with(".json.gz")) files.push_back(entry.path().string());
    std::sort(files.begin(), files.end());
    std::vector<nlohmann::json> out;
    for (const std::string& f : files)
        out.push_back(nlohmann::json::parse(gunzipFile(f)).at("traceEvents"));
    return out;
}

// The number of events over all rank files of dir for which keep(event) is true.
inline std::int64_t countRawEvents(const std::string& dir,
                                   const std::function<bool(const nlohmann::json&)>& keep) {
    std::int64_t n = 0;
    for (const nlohmann::json& events : rawRankEvents(dir))
        for (const nlohmann::json& e : events)
            n += keep(e);
    return n;
}

} // namespace sltest
