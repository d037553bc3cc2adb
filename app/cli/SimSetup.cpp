#include "SimSetup.h"

#include "io/EtFolder.h"
#include "io/LoadError.h"
#include "report/ToolSetup.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <stdexcept>

namespace sl::cli {

SimSetup parseSimSetup(Args& args, const std::string& command, bool withKnobs) {
    SimSetup s;
    auto stepText = args.option("--step");
    std::optional<std::string> config;
    std::vector<std::string> sets;
    s.etPaths = args.options("--et");
    if (withKnobs) {
        config = args.option("--config");
        sets = args.options("--set");
    }
    s.paths = args.positional();
    if (s.paths.empty()) throw UsageError{command + " needs at least one PATH"};
    s.etPaths = etPathsOrRunFolder(s.paths, std::move(s.etPaths));
    if (stepText) s.step = nonNegativeInt("--step", *stepText);
    if (config) {
        std::ifstream in(*config);
        if (!in) throw LoadError(*config, "cannot read the config file");
        try {
            applyKnobsJson(s.knobs, nlohmann::json::parse(in));
        } catch (const nlohmann::json::exception& e) {
            throw LoadError(*config, std::string("invalid JSON: ") + e.what());
        } catch (const KnobError& e) {
            throw LoadError(*config, e.what());
        }
    }
    for (const auto& a : sets) {
        try {
            setKnobAssignment(s.knobs, a);
        } catch (const KnobError& e) {
            throw UsageError{std::string("--set: ") + e.what()};
        }
    }
    return s;
}

ExecutionGraph buildGraphForCli(TraceSet& set, const SimSetup& setup) {
    EtApplied et = applyExecutionTraces(set, setup.etPaths);
    if (et.files > 0) std::fprintf(stderr, "note: %s\n", et.summary().c_str());
    return buildGraphForPaths(set, setup.paths, setup.step, et.warnings);
}

} // namespace sl::cli
