#pragma once
// What the window says about the session shown (docs/MainWindow.md): its title and its status line.
#include <QString>

namespace sl::ui {

class SessionController;

// The session's name, else the traces' ("[*]" for the modified marker).
QString windowTitleFor(const SessionController& session);
// Ranks, events, the time window and, after a simulation, the iteration and the GPU span.
QString statusTextFor(const SessionController& session);

} // namespace sl::ui
