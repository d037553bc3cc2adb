#pragma once
// The desktop program's renderer from the command line (docs/Exports.md): `sightline-cli render`
// and the timeline pictures of `sightline-cli report` run `sightline --render` next to this binary
// on Qt's offscreen platform, so the command line stays headless (core only, no Qt).
#include <string>
#include <vector>

namespace sl::cli {

// The sightline program in this binary's folder ("" when there is none: a build without the GUI).
std::string guiProgram();

// Runs `gui` with `args` (after argv[0]) on the offscreen platform and waits. Returns its exit
// status (2 when a signal stopped it, with one line in *error). With `quiet`, the program's output
// is not shown: stdout is dropped and the last line of stderr goes to *error.
int runGuiProgram(const std::string& gui, const std::vector<std::string>& args, bool quiet,
                  std::string* error = nullptr);

} // namespace sl::cli
