#include "io/MemoryLimits.h"

#include "io/LoadError.h"

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>

namespace sl {

namespace {

std::string megabytes(std::int64_t bytes) {
    return std::to_string((bytes + 999'999) / 1'000'000) + " MB";
}

} // namespace

std::int64_t availableMemoryBytes() {
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen("/proc/meminfo", "r"), &std::fclose);
    if (!f) return -1;
    char line[256];
    while (std::fgets(line, sizeof line, f.get())) {
        long long kb = 0;
        if (std::sscanf(line, "MemAvailable: %lld kB", &kb) == 1 && kb >= 0) return kb * 1024;
    }
    return -1;
}

std::int64_t memoryBudgetBytes(std::int64_t limitOption) {
    if (limitOption > 0) return limitOption;
    if (limitOption < 0) return -1;
    return availableMemoryBytes();
}

std::int64_t estimateUncompressedBytes(const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) return -1; // never open a FIFO here: it blocks
    auto size = std::filesystem::file_size(path, ec);
    if (ec) return -1;
    auto onDisk = static_cast<std::int64_t>(size);
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
    if (!f) return -1;
    unsigned char magic[2] = {0, 0};
    if (std::fread(magic, 1, 2, f.get()) != 2 || magic[0] != 0x1f || magic[1] != 0x8b) return onDisk;
    if (onDisk < 18 || std::fseek(f.get(), -4, SEEK_END) != 0) return onDisk;
    unsigned char t[4] = {0, 0, 0, 0};
    if (std::fread(t, 1, 4, f.get()) != 4) return onDisk;
    std::int64_t isize = static_cast<std::int64_t>(t[0]) | static_cast<std::int64_t>(t[1]) << 8 |
                         static_cast<std::int64_t>(t[2]) << 16 | static_cast<std::int64_t>(t[3]) << 24;
    return std::max(isize, onDisk);
}

void checkMemoryForLoad(const std::vector<std::string>& files, const std::string& label,
                        std::int64_t budget) {
    if (budget < 0) return;
    std::int64_t json = 0;
    for (const auto& file : files)
        json += std::max<std::int64_t>(estimateUncompressedBytes(file), 0);
    auto needed = static_cast<std::int64_t>(static_cast<double>(json) * kMemoryPerJsonByte);
    if (needed > budget)
        throw LoadError(ErrorKind::Limit, label,
                        "loading needs about " + megabytes(needed) + " of memory (" + megabytes(json) +
                            " of JSON in " + std::to_string(files.size()) + " file(s)) but only " +
                            megabytes(budget) + " are available; load fewer ranks or free memory");
}

void checkMemoryForWholeParse(const std::string& path, std::int64_t jsonBytes, std::int64_t budget) {
    if (budget < 0) return;
    auto needed = static_cast<std::int64_t>(static_cast<double>(jsonBytes) * kWholeParseMemoryPerJsonByte);
    if (needed > budget)
        throw LoadError(ErrorKind::Limit, path,
                        "this file must be parsed whole (its events could not be read in pieces), which "
                        "needs about " +
                            megabytes(needed) + " of memory for " + megabytes(jsonBytes) +
                            " of JSON but only " + megabytes(budget) +
                            " are available; free memory or split the trace");
}

} // namespace sl
