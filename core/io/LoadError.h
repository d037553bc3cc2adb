#pragma once
#include "base/Error.h"

#include <cstdint>
#include <stdexcept>
#include <string>

namespace sl {

// A trace file that cannot be loaded (base/Error.h): Parse unless the reader says otherwise.
// what() is the one-line message "FILE: problem (at byte N)".
class LoadError : public Error {
public:
    LoadError(std::string file, const std::string& problem, std::int64_t byteOffset = -1,
              ErrorKind kind = ErrorKind::Parse)
        : Error(kind, std::move(file), problem, byteOffset) {}
    LoadError(ErrorKind kind, std::string file, const std::string& problem)
        : Error(kind, std::move(file), problem) {}
};

// Thrown when a progress callback asked to stop.
class LoadCancelled : public std::runtime_error {
public:
    LoadCancelled() : std::runtime_error("loading cancelled") {}
};

} // namespace sl
