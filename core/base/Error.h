#pragma once
// The one error type of the core (docs/Diagnostics.md): a kind, the file it
// concerns, the byte offset where one is known and a message. what() is the line every front end
// prints: "FILE: message (at byte N)", or the message alone without a file.
#include <cstdint>
#include <stdexcept>
#include <string>

namespace sl {

enum class ErrorKind : std::uint8_t {
    Read,   // the file cannot be opened or read (missing, a folder, an I/O error)
    Parse,  // the bytes are not the syntax they claim (invalid JSON, corrupt gzip, a bad record)
    Format, // well-formed, but not what a reader understands (no "nodes", no traceEvents, ...)
    Limit,  // larger than what the program accepts (memory, the 4 GiB parser limit)
    Write,  // a file cannot be written (a report, an export)
    Graph,  // an execution graph that cannot be built or is invalid (a cycle, a missing step)
    Usage,  // a mistake on the command line or in a configuration value
};

// Stable lower-case name of a kind ("read", "parse", ...), for --json outputs and logs.
const char* errorKindName(ErrorKind kind);

class Error : public std::runtime_error {
public:
    Error(ErrorKind kind, std::string file, const std::string& message, std::int64_t byteOffset = -1)
        : std::runtime_error(format(file, message, byteOffset)), kind_(kind), file_(std::move(file)),
          message_(message), offset_(byteOffset) {}

    ErrorKind kind() const { return kind_; }
    // The file the error concerns; empty when it concerns none.
    const std::string& file() const { return file_; }
    // The problem without the file and offset.
    const std::string& message() const { return message_; }
    // Byte offset into the (uncompressed) file, -1 when not known.
    std::int64_t byteOffset() const { return offset_; }

private:
    static std::string format(const std::string& file, const std::string& message, std::int64_t offset) {
        std::string msg = file.empty() ? message : file + ": " + message;
        if (offset >= 0) msg += " (at byte " + std::to_string(offset) + ")";
        return msg;
    }
    ErrorKind kind_;
    std::string file_;
    std::string message_;
    std::int64_t offset_;
};

// A file that cannot be written (a report, an export, a Chakra file).
class WriteError : public Error {
public:
    WriteError(std::string file, const std::string& message)
        : Error(ErrorKind::Write, std::move(file), message) {}
};

} // namespace sl
