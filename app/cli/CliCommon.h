#pragma once
#include "base/Error.h"
#include "trace/TraceSet.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace sl::cli {

// Exit codes of the command-line contract (docs/ARCHITECTURE.md).
constexpr int kExitOk = 0;
constexpr int kExitUsage = 1;
constexpr int kExitBadInput = 2;

// A usage mistake: printed as "usage error: ..." with exit code 1 (base/Error.h, kind Usage).
class UsageError : public Error {
public:
    explicit UsageError(const std::string& message) : Error(ErrorKind::Usage, std::string(), message) {}
};

// Minimal argument scanner: positional arguments, --flag and --option VALUE (or --option=VALUE).
class Args {
public:
    Args(std::vector<std::string> args) : args_(std::move(args)) {}

    bool flag(const std::string& name);
    std::optional<std::string> option(const std::string& name);
    std::vector<std::string> options(const std::string& name); // repeatable
    // What is left after flags and options were taken: positional arguments. Unknown --options
    // are a usage error.
    std::vector<std::string> positional();

private:
    std::vector<std::string> args_;
};

// The value of an option that takes a non-negative integer (--rank, --step); a UsageError naming
// the option otherwise.
int nonNegativeInt(const std::string& option, const std::string& text);

// Loads traces with progress on stderr when stderr is a terminal.
TraceSet loadWithProgress(const std::vector<std::string>& paths);

// The execution traces of a run folder given alone (kineto/ and et/ inside, io/EtFolder.h), as
// the GUI attaches them: {".../run/et"} with a note on stderr when `etPaths` is empty, else
// `etPaths` as given.
std::vector<std::string> etPathsOrRunFolder(const std::vector<std::string>& paths,
                                            std::vector<std::string> etPaths);

// Runs a command body, mapping UsageError to exit 1 and every other error (base/Error.h: reading,
// writing, the graph) to exit 2 ("error: FILE: what").
int runGuarded(const std::function<int()>& body);

struct Command {
    std::string name;
    std::string summary;
    std::string help;
    std::function<int(Args&)> run;
};

// Every command registers itself from its own file: static CommandRegistrar r{makeXCommand()};
std::vector<Command>& commands();
struct CommandRegistrar {
    explicit CommandRegistrar(Command c);
};

} // namespace sl::cli
