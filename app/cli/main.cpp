// sightline-cli: the command-line front end of the headless core library.
#include "CliCommon.h"

#include <iostream>
#include <string>
#include <vector>

namespace {

void printUsage(std::ostream& out) {
    out << "usage: sightline-cli COMMAND [ARGS...]\n\ncommands:\n";
    for (const auto& c : sl::cli::commands())
        out << "  " << c.name << std::string(16 - std::min<std::size_t>(c.name.size(), 15), ' ') << c.summary
            << "\n";
    out << "\nRun 'sightline-cli COMMAND --help' for the options of a command.\n";
}

} // namespace

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty()) {
        printUsage(std::cerr);
        return sl::cli::kExitUsage;
    }
    if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        printUsage(std::cout);
        return sl::cli::kExitOk;
    }
    for (const auto& c : sl::cli::commands()) {
        if (c.name != args[0]) continue;
        sl::cli::Args rest(std::vector<std::string>(args.begin() + 1, args.end()));
        if (rest.flag("--help") || rest.flag("-h")) {
            std::cout << c.help;
            return sl::cli::kExitOk;
        }
        return sl::cli::runGuarded([&] { return c.run(rest); });
    }
    std::cerr << "usage error: unknown command '" << args[0] << "'\n";
    printUsage(std::cerr);
    return sl::cli::kExitUsage;
}
