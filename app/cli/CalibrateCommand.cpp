#include "CliCommon.h"
#include "SimSetup.h"

#include "base/Rounding.h"
#include "sim/Simulator.h"
#include "structure/CollectiveCalls.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <iostream>

namespace sl::cli {

namespace {

Command makeCalibrateCommand() {
    return {"calibrate", "fit collective bandwidth and latency from measured transfers (knob JSON)",
            "usage: sightline-cli calibrate PATH... [--step N] [--set comm.gpus_per_node=G]\n"
            "\n"
            "Fits the alpha-beta collective model (time = latency + bus bytes / bus bandwidth) to the\n"
            "measured transfers of the traces, with least squares on transfer time vs bus bytes, per\n"
            "locality (intra / inter node) and per collective type. Bytes come from the collective\n"
            "metadata (max(In, Out msg nelems) x dtype size); kernels without it are left out.\n"
            "Prints a knob config (JSON) that `simulate --config` and `sweep --config` accept: it sets\n"
            "comm.model=alpha-beta with the fitted values; the \"calibration\" object lists each fit\n"
            "(samples, distinct sizes, rms error) and a check: the iteration replayed with the\n"
            "calibrated model against the measured one.\n"
            "\n"
            "  --step N                     restrict to ProfilerStep#N\n"
            "  --set comm.gpus_per_node=G   GPUs per node (default: deviceProperties count, else 8)\n"
            "  --config F                   further knobs from a JSON file\n"
            "  --et F|DIR                   PyTorch execution traces for collective sizes (repeatable)\n",
            [](Args& args) {
                SimSetup setup = parseSimSetup(args, "calibrate", true);
                TraceSet set = loadWithProgress(setup.paths);
                ExecutionGraph g = buildGraphForCli(set, setup);
                Calibration cal = calibrate(g, gpusPerNodeOf(set, setup.knobs.commGpusPerNode));
                nlohmann::json j = cal.toKnobJson();
                // Check: replay with the calibrated model (on top of the other knobs given).
                SimKnobs k = setup.knobs;
                try {
                    applyKnobsJson(k, j);
                } catch (const KnobError& e) {
                    j["calibration"]["warnings"].push_back(std::string("check skipped: ") + e.what());
                }
                SimOptions so;
                so.timeline = true;
                SimResult replay = simulate(g, setup.knobs, so);
                SimResult model = simulate(g, k, so);
                double err = replay.measuredIteration > 0
                                 ? 100.0 *
                                       std::abs(static_cast<double>(model.simulatedIteration -
                                                                    model.measuredIteration)) /
                                       static_cast<double>(model.measuredIteration)
                                 : 0.0;
                j["calibration"]["check"] = {{"measured_us", us(model.measuredIteration)},
                                             {"replay_us", us(replay.simulatedIteration)},
                                             {"alpha_beta_us", us(model.simulatedIteration)},
                                             {"error_pct", std::round(err * 1000.0) / 1000.0}};
                std::cout << j.dump(2) << "\n";
                return kExitOk;
            }};
}

CommandRegistrar registerCalibrate{makeCalibrateCommand()};

} // namespace

} // namespace sl::cli
