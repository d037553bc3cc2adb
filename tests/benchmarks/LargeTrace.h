#pragma once
// What the benchmarks on a large trace share: the >= 200 MB trace made by replicating a real one,
// Python's json.load of a file timed in the same run (the figure the speed goals are stated
// against), and the process's memory counters.
#include "io/FileReader.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <unistd.h>

namespace sl::bench {

inline std::int64_t procStatusKb(const char* field) {
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind(field, 0) == 0) return std::stoll(line.substr(std::string(field).size()));
    return -1;
}

// Waits until a file just written is on disk: reading it while the kernel still writes it back
// made the first loads slower and their times vary (200 MB of dirty pages).
inline void settleOnDisk(const std::string& path) {
    int fd = ::open(path.c_str(), O_RDONLY);
    if (fd < 0) return;
    ::fsync(fd);
    ::close(fd);
}

// Builds (once) a >= 200 MB trace by replicating the events of a real trace.
inline const std::string& largeTracePath() {
    static std::string path;
    if (!path.empty()) return path;
    std::string source = std::string(SIGHTLINE_TRACES_DIR) + "/single-rank/rtx2080ti-linear.json.gz";
    if (!std::filesystem::exists(source)) return path;
    sl::TraceBuffer buffer = sl::readTraceFile(source);
    auto doc = nlohmann::json::parse(buffer.data(), buffer.data() + buffer.size());
    auto events = std::move(doc["traceEvents"]);
    doc.erase("traceEvents");
    double first = 1e300, last = 0;
    for (const auto& e : events)
        if (e.contains("ts") && e["ts"].is_number()) {
            first = std::min(first, e["ts"].get<double>());
            last = std::max(last, e["ts"].get<double>() + e.value("dur", 0.0));
        }
    double span = last - first + 1000;
    std::string head = doc.dump();
    head.pop_back(); // the closing brace: traceEvents goes last
    head += ",\"traceEvents\":[";
    path = (std::filesystem::temp_directory_path() /
            ("sightline-bench-load-" + std::to_string(getpid()) + ".json"))
               .string();
    std::ofstream out(path, std::ios::binary);
    out << head;
    std::size_t written = head.size();
    bool firstEvent = true;
    for (int copy = 0; written < 210u * 1000 * 1000; ++copy) {
        for (auto e : events) {
            if (e.contains("ts") && e["ts"].is_number()) e["ts"] = e["ts"].get<double>() + copy * span;
            if (e.contains("id") && e["id"].is_number_integer())
                e["id"] = e["id"].get<std::int64_t>() + copy * 10000000;
            if (e.contains("args") && e["args"].contains("correlation"))
                e["args"]["correlation"] = e["args"]["correlation"].get<std::int64_t>() + copy * 10000000;
            std::string text = e.dump();
            if (!firstEvent) out << ",\n";
            out << text;
            written += text.size() + 2;
            firstEvent = false;
        }
    }
    out << "]}";
    out.close();
    settleOnDisk(path);
    return path;
}

// Python's json.load of the same file, timed by Python itself (-1 when python3 is missing).
inline double pythonJsonLoadSeconds(const std::string& path) {
    static std::map<std::string, double> cache;
    if (auto it = cache.find(path); it != cache.end()) return it->second;
    double seconds = -1;
    if (std::system("command -v python3 >/dev/null 2>&1") == 0) {
        // A .gz is read through gzip.open, as a Python user would.
        std::string command = "python3 -c 'import json,sys,time,gzip; t=time.perf_counter(); "
                              "p=sys.argv[1]; json.load(gzip.open(p) if p.endswith(\".gz\") else open(p)); "
                              "print(time.perf_counter()-t)' '" +
                              path + "'";
        if (FILE* pipe = popen(command.c_str(), "r")) {
            if (std::fscanf(pipe, "%lf", &seconds) != 1) seconds = -1;
            pclose(pipe);
        }
    }
    cache[path] = seconds;
    return seconds;
}

} // namespace sl::bench
