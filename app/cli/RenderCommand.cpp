// sightline-cli render: a timeline figure for scripts (docs/Exports.md). The command line stays
// headless (core only, no Qt): the figure is painted by the desktop program's renderer, so the
// command runs `sightline --render` next to this binary on Qt's offscreen platform (no display).
#include "CliCommon.h"

#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

extern char** environ;

namespace sl::cli {

namespace {

// The sightline program in this binary's folder ("" when there is none).
std::string guiProgram() {
    std::error_code ec;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec) return {};
    const std::filesystem::path gui = self.parent_path() / "sightline";
    return std::filesystem::exists(gui, ec) ? gui.string() : std::string();
}

Command makeRenderCommand() {
    return {
        "render", "render measured and simulated timelines to PNG, SVG or PDF (title, axis, legend, knobs)",
        "usage: sightline-cli render PATH... --out F.svg|F.png|F.pdf [--set key=value]... [--range A:B]\n"
        "                            [--size WxH] [--pane both|measured|simulated]\n"
        "\n"
        "Loads the traces, simulates them with the knobs and renders the measured pane above the\n"
        "simulated one at the size given (default 1920x1080): the trace names, the iteration\n"
        "headline, the knob values, a time axis from the trace's start, every rank (each rank's\n"
        "summary strip when the expanded tracks do not fit) and the colour legend. Painted by the\n"
        "desktop program's timeline renderer off-screen: needs `sightline` next to sightline-cli,\n"
        "no display.\n"
        "\n"
        "  --out F       the figure; the format follows the extension: .png, .svg or .pdf\n"
        "  --set k=v     a knob (repeatable; see `sightline-cli knobs`)\n"
        "  --range A:B   the time range from the trace's start: 2ms:8ms, 500us:1.5ms (plain numbers: ms)\n"
        "  --size WxH    pixels (SVG and PDF: the page in 96 dpi pixels), e.g. 3840x2160\n"
        "  --pane P      both (default), measured or simulated\n"
        "\n"
        "Exit 0 on success, 1 on bad usage, 2 with one line `error: FILE: what` on bad input.\n",
        [](Args& args) {
            const auto out = args.option("--out");
            const auto sets = args.options("--set");
            const auto range = args.option("--range");
            const auto size = args.option("--size");
            const auto pane = args.option("--pane");
            const std::vector<std::string> paths = args.positional();
            if (!out || out->empty()) throw UsageError{"render needs --out FILE.svg|png|pdf"};
            if (paths.empty()) throw UsageError{"render needs at least one trace file or folder"};
            const std::string gui = guiProgram();
            if (gui.empty())
                throw UsageError{"render needs the sightline program next to sightline-cli (a build "
                                 "without the GUI cannot render)"};
            std::vector<std::string> argv = {gui, "--render", *out};
            for (const auto& s : sets) {
                argv.push_back("--set");
                argv.push_back(s);
            }
            for (const auto& [name, value] :
                 {std::pair{"--range", range}, {"--size", size}, {"--pane", pane}})
                if (value) {
                    argv.push_back(name);
                    argv.push_back(*value);
                }
            argv.push_back("--");
            argv.insert(argv.end(), paths.begin(), paths.end());
            std::vector<char*> cargv;
            for (auto& a : argv)
                cargv.push_back(a.data());
            cargv.push_back(nullptr);
            // The program's environment with Qt's offscreen platform: no display needed.
            std::vector<std::string> env;
            for (char** e = environ; *e; ++e)
                if (std::strncmp(*e, "QT_QPA_PLATFORM=", 16) != 0) env.emplace_back(*e);
            env.emplace_back("QT_QPA_PLATFORM=offscreen");
            // Qt warns on stderr without a runtime folder; errors stay one line (docs/ARCHITECTURE.md).
            if (!std::getenv("XDG_RUNTIME_DIR")) {
                const std::string dir = "/tmp/sightline-runtime-" + std::to_string(getuid());
                ::mkdir(dir.c_str(), 0700);
                ::chmod(dir.c_str(), 0700);
                env.push_back("XDG_RUNTIME_DIR=" + dir);
            }
            std::vector<char*> cenv;
            for (auto& e : env)
                cenv.push_back(e.data());
            cenv.push_back(nullptr);
            pid_t pid = 0;
            if (int rc = posix_spawn(&pid, gui.c_str(), nullptr, nullptr, cargv.data(), cenv.data()); rc != 0)
                throw UsageError{gui + ": cannot start: " + std::strerror(rc)};
            int status = 0;
            while (waitpid(pid, &status, 0) < 0)
                if (errno != EINTR) throw UsageError{gui + ": lost: " + std::strerror(errno)};
            if (WIFEXITED(status)) return WEXITSTATUS(status);
            std::fprintf(stderr, "error: %s: the renderer stopped (signal %d)\n", out->c_str(),
                         WIFSIGNALED(status) ? WTERMSIG(status) : 0);
            return 2;
        }};
}

CommandRegistrar registerRender{makeRenderCommand()};

} // namespace

} // namespace sl::cli
