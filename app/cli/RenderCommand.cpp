// sightline-cli render: a timeline figure for scripts (docs/Exports.md), painted by the desktop
// program's renderer (RenderCommand.h).
#include "RenderCommand.h"

#include "CliCommon.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

extern char** environ;

namespace sl::cli {

std::string guiProgram() {
    std::error_code ec;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec) return {};
    const std::filesystem::path gui = self.parent_path() / "sightline";
    return std::filesystem::exists(gui, ec) ? gui.string() : std::string();
}

int runGuiProgram(const std::string& gui, const std::vector<std::string>& args, bool quiet,
                  std::string* error) {
    std::vector<std::string> argv = {gui};
    argv.insert(argv.end(), args.begin(), args.end());
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
    // Quiet: stdout to /dev/null, stderr to a temporary file read back for its last line.
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    std::string errPath;
    if (quiet) {
        char tmpl[] = "/tmp/sightline-render-XXXXXX";
        const int fd = ::mkstemp(tmpl);
        if (fd >= 0) {
            ::close(fd);
            errPath = tmpl;
            posix_spawn_file_actions_addopen(&actions, 2, errPath.c_str(), O_WRONLY | O_TRUNC, 0600);
        }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    }
    pid_t pid = 0;
    const int rc = posix_spawn(&pid, gui.c_str(), &actions, nullptr, cargv.data(), cenv.data());
    posix_spawn_file_actions_destroy(&actions);
    auto lastErrorLine = [&] {
        std::string last;
        if (errPath.empty()) return last;
        std::ifstream in(errPath);
        for (std::string line; std::getline(in, line);)
            if (!line.empty()) last = line;
        std::filesystem::remove(errPath);
        return last;
    };
    if (rc != 0) {
        lastErrorLine();
        throw UsageError{gui + ": cannot start: " + std::strerror(rc)};
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) throw UsageError{gui + ": lost: " + std::strerror(errno)};
    const std::string last = lastErrorLine();
    if (error) *error = last;
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (error)
        *error = "the renderer stopped (signal " +
                 std::to_string(WIFSIGNALED(status) ? WTERMSIG(status) : 0) + ")";
    return 2;
}

namespace {

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
            std::string error;
            const int rc =
                runGuiProgram(gui, std::vector<std::string>(argv.begin() + 1, argv.end()), false, &error);
            if (!error.empty()) std::fprintf(stderr, "error: %s: %s\n", out->c_str(), error.c_str());
            return rc;
        }};
}

CommandRegistrar registerRender{makeRenderCommand()};

} // namespace

} // namespace sl::cli
