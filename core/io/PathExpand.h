#pragma once
// Folders given as trace paths: the files inside them that a reader takes. Shared by the readers
// of execution traces (io/EtFolder.h) and Chakra files (io/chakra/ChakraReader.h).
#include <functional>
#include <string>
#include <vector>

namespace sl {

// Expands each folder into the regular files in it whose file name `wanted` accepts, sorted by
// `less` (name order when empty), and keeps other paths as given. Throws LoadError(folder,
// noFiles) for a folder without such files and LoadError(path, notFound) for a missing path.
std::vector<std::string>
expandFolders(const std::vector<std::string>& paths,
              const std::function<bool(const std::string& fileName)>& wanted, const std::string& noFiles,
              const std::string& notFound,
              const std::function<bool(const std::string&, const std::string&)>& less = {});

} // namespace sl
