#include "base/Error.h"

namespace sl {

const char* errorKindName(ErrorKind kind) {
    switch (kind) {
    case ErrorKind::Read:
        return "read";
    case ErrorKind::Parse:
        return "parse";
    case ErrorKind::Format:
        return "format";
    case ErrorKind::Limit:
        return "limit";
    case ErrorKind::Write:
        return "write";
    case ErrorKind::Graph:
        return "graph";
    case ErrorKind::Usage:
        return "usage";
    }
    return "error";
}

} // namespace sl
