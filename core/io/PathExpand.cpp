#include "io/PathExpand.h"

#include "io/LoadError.h"

#include <algorithm>
#include <filesystem>

namespace sl {

std::vector<std::string>
expandFolders(const std::vector<std::string>& paths,
              const std::function<bool(const std::string& fileName)>& wanted, const std::string& noFiles,
              const std::string& notFound,
              const std::function<bool(const std::string&, const std::string&)>& less) {
    namespace fs = std::filesystem;
    std::vector<std::string> out;
    for (const auto& p : paths) {
        std::error_code ec;
        if (fs::is_directory(p, ec)) {
            std::vector<std::string> files;
            for (const auto& e : fs::directory_iterator(p, ec))
                if (e.is_regular_file(ec) && wanted(e.path().filename().string()))
                    files.push_back(e.path().string());
            if (ec) throw LoadError(ErrorKind::Read, p, "cannot list folder: " + ec.message());
            if (files.empty()) throw LoadError(ErrorKind::Read, p, noFiles);
            if (less)
                std::sort(files.begin(), files.end(), less);
            else
                std::sort(files.begin(), files.end());
            out.insert(out.end(), files.begin(), files.end());
        } else if (fs::exists(p, ec)) {
            out.push_back(p);
        } else {
            throw LoadError(ErrorKind::Read, p, notFound);
        }
    }
    return out;
}

} // namespace sl
