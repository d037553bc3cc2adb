#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>

namespace sl {

// A trace file that cannot be loaded. what() is the one-line message "FILE: problem".
class LoadError : public std::runtime_error {
public:
    LoadError(std::string file, const std::string& problem, std::int64_t byteOffset = -1)
        : std::runtime_error(format(file, problem, byteOffset)), file_(std::move(file)), offset_(byteOffset) {
    }

    const std::string& file() const { return file_; }
    std::int64_t byteOffset() const { return offset_; }

private:
    static std::string format(const std::string& file, const std::string& problem, std::int64_t offset) {
        std::string msg = file + ": " + problem;
        if (offset >= 0) msg += " (at byte " + std::to_string(offset) + ")";
        return msg;
    }
    std::string file_;
    std::int64_t offset_;
};

// Thrown when a progress callback asked to stop.
class LoadCancelled : public std::runtime_error {
public:
    LoadCancelled() : std::runtime_error("loading cancelled") {}
};

} // namespace sl
