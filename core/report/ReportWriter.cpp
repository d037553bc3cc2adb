#include "report/ReportWriter.h"

#include "base/Error.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace sl {

std::optional<ReportFormat> reportFormatOf(const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    for (char& c : ext)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (ext == ".html" || ext == ".htm") return ReportFormat::Html;
    if (ext == ".json") return ReportFormat::Json;
    if (ext == ".csv") return ReportFormat::Csv;
    return std::nullopt;
}

void writeTextFile(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) throw WriteError(path, std::string("cannot write the report: ") + std::strerror(errno));
    out << text;
    out.flush();
    if (!out) throw WriteError(path, "cannot write the report (disk full?)");
}

} // namespace sl
