#include "CliCommon.h"

#include "sim/KnobRegistry.h"

#include <iostream>

namespace sl::cli {

namespace {

Command makeKnobsCommand() {
    return {"knobs", "list every what-if knob: key, valid values, default, what it models",
            "usage: sightline-cli knobs [--json]\n"
            "\n"
            "Prints the simulator's knob table (the same table that `--set key=value`, `--config F.json`,\n"
            "the reports and the GUI's knob panel read): per knob its key, default, valid values and what\n"
            "it models; then the knobs whose key carries a parameter (kernel.speedup[<regex>], ...).\n"
            "\n"
            "  --json   print [{key, type, default, valid, unit, choices, sentinel, help}, ...]\n",
            [](Args& args) {
                bool json = args.flag("--json");
                if (!args.positional().empty()) throw UsageError{"knobs takes no PATH"};
                if (json)
                    std::cout << knobReferenceJson().dump(2) << "\n";
                else
                    std::cout << knobReferenceText();
                return kExitOk;
            }};
}

CommandRegistrar registerKnobs{makeKnobsCommand()};

} // namespace

} // namespace sl::cli
