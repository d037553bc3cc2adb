#pragma once
#include <QString>

namespace sl::ui {

// Where file dialogs start: the folder last used by any of them (else the home folder), with fileName
// appended when given. rememberDir() records the folder of a chosen path (of a folder of traces: the
// folder beside it, where the other trace folders are).
QString dialogDir(const QString& fileName = {});
void rememberDir(const QString& path);

} // namespace sl::ui
